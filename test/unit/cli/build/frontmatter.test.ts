/**
 * Frontmatter: the common `key: value` form is read without the YAML parser (cli/build/frontmatter.ts).
 * Whatever it reads must be exactly what the YAML parser reads; everything else goes to the parser.
 */
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { frontmatterBody, lastUpdateTime, parseFrontmatter, simpleYaml, type SplitSource } from '../../../../cli/build/frontmatter';
import { random } from '../../../support/markdown-fuzz';

describe('cli/build/frontmatter', () => {
  it('reads the usual frontmatter as YAML does', () => {
    const text = 'title: "Passbolt: our password manager"\nsidebar_position: 3\ndescription: How we share secrets, and why\nhide_table_of_contents: true\nslug: /onboarding/passbolt\nid: \'passbolt\'\n';
    expect(simpleYaml(text)).toEqual(parse(text));
    expect(parseFrontmatter(`---\n${text}---\n\nBody\n`, 'content/a.md').frontmatter).toEqual({
      title: 'Passbolt: our password manager',
      sidebar_position: 3,
      description: 'How we share secrets, and why',
      hide_table_of_contents: true,
      slug: '/onboarding/passbolt',
      id: 'passbolt',
    });
  });

  it.each([
    ['nesting', 'title: A\nmeta:\n  a: 1\n'],
    ['a list', 'keywords:\n  - a\n  - b\n'],
    ['a comment', 'title: A # the title\n'],
    ['a repeated key', 'title: A\ntitle: B\n'],
    ['an escape', 'title: "a\\tb"\n'],
    ['a hexadecimal number', 'sidebar_position: 0x1F\n'],
    ['a key without a space', 'title:A\n'],
    ['a flow sequence', 'keywords: [a, b]\n'],
  ])('leaves %s to the YAML parser', (_, text) => {
    expect(simpleYaml(text)).toBeUndefined();
  });

  it('still reports YAML errors with their line', () => {
    const split = parseFrontmatter('---\ntitle: A\ntitle: B\n---\n', 'content/a.md');
    expect(split.problems).toEqual([expect.objectContaining({ file: 'content/a.md', line: 3, message: expect.stringContaining('frontmatter is not valid YAML'), fix: 'keep one line of each key: remove or rename the other' })]);
  });

  it("takes a Docusaurus page's keys: those that change nothing here are left out, a hidden page is refused at its line", () => {
    const page = '---\ntitle: Beacons\ntags: [hardware, race]\npagination_next: null\nhide_title: true\ntoc_max_heading_level: 4\nimage: /img/beacon.png\ndraft: false\n---\n\nText.\n';
    const split = parseFrontmatter(page, 'content/a.md');
    expect(split.problems).toEqual([]);
    // hide_title, the TOC levels and the pagination keys are read; the others change nothing here.
    expect(split.frontmatter).toEqual({ title: 'Beacons', hide_title: true, toc_max_heading_level: 4, pagination_next: null });
    const levels = (front: string): string[] => parseFrontmatter(`---\n${front}\n---\n`, 'content/a.md').problems.map((p) => `${p.line} ${p.message}`);
    expect(levels('toc_max_heading_level: 7')).toEqual(['2 frontmatter `toc_max_heading_level` is 7, not a heading level from 2 to 6']);
    expect(levels('toc_min_heading_level: 4\ntoc_max_heading_level: 3')).toEqual(['2 frontmatter `toc_min_heading_level` (4) is past `toc_max_heading_level` (3)']);
    expect(levels('toc_min_heading_level: 2\ntoc_max_heading_level: 5')).toEqual([]);
    // The edit link is an http(s) address or none: never a script.
    expect(levels('custom_edit_url: javascript:alert(1)')).toEqual(['2 frontmatter `custom_edit_url` must be an http(s) address or null, got "javascript:alert(1)"']);
    expect(parseFrontmatter('---\ncustom_edit_url: null\n---\n', 'content/a.md').frontmatter).toEqual({ custom_edit_url: null });
    expect(parseFrontmatter('---\npagination_prev: 3\n---\n', 'content/a.md').problems.map((p) => `${p.line} ${p.message}`)).toEqual(["2 frontmatter `pagination_prev` must be a page's id or null, got 3"]);
    const hidden = parseFrontmatter('---\ntitle: Plans\ndraft: true\nunlisted: true\n---\n', 'content/a.md');
    expect(hidden.problems.map(({ line, message }) => [line, message])).toEqual([
      [3, 'frontmatter `draft: true` leaves the page out of a Docusaurus production build; docs publishes every page in the content folder'],
      [4, 'frontmatter `unlisted: true` hides the page from Docusaurus sidebars and search; docs publishes every page in the content folder'],
    ]);
    // A typo is still an error that names the key it may mean.
    expect(parseFrontmatter('---\ntitel: A\n---\n', 'content/a.md').problems[0]).toMatchObject({ line: 2, fix: 'did you mean `title`?' });
  });

  it('reads last_update as Docusaurus does: a date of the calendar, an author, or both; anything else at its line', () => {
    const read = (front: string): SplitSource => parseFrontmatter(`---\ntitle: A\n${front}\n---\n`, 'content/a.md');
    expect(read('last_update:\n  date: 2025-03-14\n  author: Jane Doe').frontmatter.last_update).toEqual({ date: '2025-03-14', author: 'Jane Doe' });
    expect(read('last_update: { author: Board }').frontmatter.last_update).toEqual({ author: 'Board' });
    expect(read('last_update:\n  date: 2025-03-14T09:30:00+01:00').problems).toEqual([]);
    const problems = (front: string): string[] => read(front).problems.map((p) => `${p.line} ${p.message}`);
    // 30 February would roll over into March; a date in words is read differently by every engine.
    // At the date's own line, below the key's.
    expect(problems('last_update:\n  date: 2025-02-30')).toEqual(['4 frontmatter `last_update.date` is not a date: "2025-02-30"']);
    expect(problems('last_update:\n  author: Jane Doe\n  date: yesterday')).toEqual(['5 frontmatter `last_update.date` is not a date: "yesterday"']);
    expect(problems('last_update: { date: yesterday }')).toEqual(['3 frontmatter `last_update.date` is not a date: "yesterday"']);
    expect(problems('last_update: {}')).toEqual(['3 frontmatter `last_update` gives neither `date` nor `author`']);
    expect(problems('last_update:\n  when: 2025-03-14')[0]).toMatch(/^3 frontmatter `last_update.when`/);
    expect(lastUpdateTime('2024-02-29')).toBe(Date.UTC(2024, 1, 29));
    expect(lastUpdateTime('2025-02-29')).toBeUndefined();
    // A time without a zone is UTC, whatever the build machine's zone.
    expect(lastUpdateTime('2025-03-14 09:30')).toBe(Date.UTC(2025, 2, 14, 9, 30));
    expect(lastUpdateTime('2025-03-14T09:30:00+01:00')).toBe(Date.UTC(2025, 2, 14, 8, 30));
  });

  it('reports a key named __proto__ as unknown, at its line, in the short form and in full YAML', () => {
    for (const text of ['---\ntitle: A\n__proto__: x\n---\n', '---\ntitle: A\n__proto__: {title: B}\n---\n']) {
      const split = parseFrontmatter(text, 'content/a.md');
      expect(split.problems, text).toHaveLength(1);
      expect(split.problems[0], text).toMatchObject({ line: 3, message: expect.stringContaining('__proto__') });
      expect(split.frontmatter, text).toEqual({});
    }
  });

  it('says a YAML merge key is not supported, at its line, instead of suggesting another key', () => {
    const split = parseFrontmatter('---\nbase: &b\n  sidebar_position: 3\n<<: *b\ntitle: A\n---\n', 'content/a.md');
    const merge = split.problems.find((problem) => problem.message.includes('<<'));
    expect(merge).toMatchObject({ line: 4, message: "frontmatter `<<` (a YAML merge key) is not supported: it merges nothing into the page's keys", fix: 'write the keys it would merge in this frontmatter itself' });
  });

  it('says how to write a value of the wrong type: a number where text is expected goes in quotes', () => {
    const split = parseFrontmatter('---\ntitle: 2024\nsidebar_position: first\n---\n', 'content/a.md');
    expect(split.problems.map(({ line, message, fix }) => [line, message, fix])).toEqual([
      [2, 'frontmatter `title` must be a non-empty string, got number 2024', 'write a non-empty string there, in quotes: "2024"'],
      [3, 'frontmatter `sidebar_position` must be a number, got the string "first"', 'write a number there'],
    ]);
    // YAML reads `1e400` and `.inf` as Infinity, `.nan` as NaN: said as what they are, not as "number Infinity".
    const huge = parseFrontmatter('---\nsidebar_position: 1e400\n---\n', 'content/a.md');
    expect(huge.problems.map(({ message }) => message)).toEqual(['frontmatter `sidebar_position` must be a number, got Infinity (a number too large to hold)']);
    const nan = parseFrontmatter('---\nsidebar_position: .nan\n---\n', 'content/a.md');
    expect(nan.problems.map(({ message }) => message)).toEqual(['frontmatter `sidebar_position` must be a number, got NaN (YAML .nan: no number at all)']);
  });

  it('agrees with the YAML parser on 5,000 generated frontmatter blocks', () => {
    const keys = ['title', 'id', 'sidebar_position', 'description', 'slug', 'hide_table_of_contents', 'x_1', 'Title'];
    const values = ['', 'Intro', 'Getting started', '3', '42', '1.5', '1e3', '007', '1.', 'true', 'False', 'TRUE', 'null', 'Null', 'yes', 'no', 'on', '~', '"quoted"', "'single'", '"a: b"', '"a # b"', 'a & b', 'C++ and C#', 'x!y', 'Ökonomie', '0o17', '0x1f', '-3', '+3', '.5', '.inf', '"', "'", 'a: b', 'a #b', 'a\tb', '[a]', '{a: 1}', '*alias', '&anchor x', '!tag x', '|', '>', '@at', '`tick`', '%pct', '2024-01-31', '12:30', 'https://quad.example'];
    const next = random(7);
    const pick = <T,>(list: T[]): T => list[Math.floor(next() * list.length)]!;
    const mismatches: string[] = [];
    let simple = 0;
    for (let i = 0; i < 5000; i++) {
      const lines = Array.from({ length: 1 + Math.floor(next() * 4) }, () => {
        const r = next();
        if (r < 0.05) return '';
        if (r < 0.08) return `  ${pick(keys)}: ${pick(values)}`;
        return `${pick(keys)}:${next() < 0.9 ? ' '.repeat(1 + Math.floor(next() * 2)) : ''}${pick(values)}${next() < 0.1 ? '  ' : ''}`;
      });
      const text = `${lines.join('\n')}\n`;
      const ours = simpleYaml(text);
      if (ours === undefined) continue;
      simple++;
      let theirs: unknown;
      try {
        theirs = parse(text) ?? {};
      } catch (error) {
        theirs = `throws: ${(error as Error).message}`;
      }
      if (JSON.stringify(ours) !== JSON.stringify(theirs)) mismatches.push(`${JSON.stringify(text)} → ${JSON.stringify(ours)} vs ${JSON.stringify(theirs)}`);
    }
    expect(mismatches).toEqual([]);
    // The shortcut must actually be taken for a good share of them, or the comparison proves little.
    expect(simple).toBeGreaterThan(800);
  });

  it('gives a render worker the same body as the main thread read, without reading the frontmatter', () => {
    // The build's main thread keeps a page's body hash only; the worker reads the file again.
    const texts = [
      'No frontmatter.\n',
      '---\ntitle: A\n---\n\n# A\n\nText.\n',
      '---\ntitle: [unclosed\n---\nBody.\n',
      '---\ntitle: A\nBody with no closing fence.\n',
      '---  \ntitle: A\n---\t\nTrailing blanks on the fences.\n',
      '--- \n---\n',
      '',
      '\n---\ntitle: A\n---\nA rule, not frontmatter.\n',
      '---\ntitle: A\n---\n---\nA rule right after it.\n',
    ];
    for (const text of texts) expect(frontmatterBody(text), JSON.stringify(text)).toBe(parseFrontmatter(text, 'content/a.md').body);
  });
});
