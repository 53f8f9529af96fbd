import { describe, expect, it } from 'vitest';
import { checkHomepage, collectContent, readPageLean, routeOf, withBodies } from '../../../../cli/build/content';
import { hash } from '../../../../cli/util/hash';
import { DocsError } from '../../../../cli/util/errors';
import { pageCost } from '../../../../cli/build/lanes';

const sidebars = [
  { id: 'wiki', label: 'Wiki', dir: 'wiki' },
  { id: 'docs', label: 'Docs', dir: 'docs' },
];
const md = (rel: string, front = '', body = 'Text.'): { rel: string; text: string } => ({ rel, text: `---\n${front}\n---\n\n${body}\n` });

describe('cli/build/content', () => {
  it('maps file paths to routes: index.md is its folder, the homepage doc is /, a slug overrides', () => {
    expect(routeOf('docs/a/index', undefined, undefined)).toBe('/docs/a');
    expect(routeOf('docs/a/b', undefined, undefined)).toBe('/docs/a/b');
    expect(routeOf('wiki/index', undefined, 'wiki/index')).toBe('/');
    expect(routeOf('docs/a/b', '/elsewhere', undefined)).toBe('/elsewhere');
    expect(routeOf('docs/a/b', 'renamed', undefined)).toBe('/docs/a/renamed');
  });

  it('takes the title from frontmatter, else the leading h1, else the file name', () => {
    const tree = collectContent({
      files: [md('docs/a.md', 'title: From frontmatter'), { rel: 'docs/b.md', text: '# From heading\n\nText.' }, { rel: 'docs/some-name.md', text: 'Text.' }],
      categories: [],
      sidebars,
      displayPrefix: 'content/',
    });
    expect(tree.docs.map((doc) => doc.title)).toEqual(['From frontmatter', 'From heading', 'Some name']);
  });

  it('takes a title from a leading h1 as its reader sees it: markup, escapes and entities gone', () => {
    const titleOf = (heading: string): string => collectContent({ files: [{ rel: 'docs/a.md', text: `${heading}\n\nText.` }], categories: [], sidebars, displayPrefix: 'content/' }).docs[0]!.title;
    expect(titleOf('# The `docs` **CLI** & [its flags](./flags.md)')).toBe('The docs CLI & its flags');
    expect(titleOf('# Use \\*stars\\* and &amp; <kbd>Ctrl</kbd> ![logo](x.png)')).toBe('Use *stars* and & Ctrl logo');
    expect(titleOf('# snake_case_names stay')).toBe('snake_case_names stay');
    expect(titleOf('# 1. Not a list')).toBe('1. Not a list');
    expect(titleOf('# Closing hashes ##')).toBe('Closing hashes');
    expect(titleOf('# Getting started {#start}')).toBe('Getting started');
  });

  it('orders a sidebar by position then name, with categories from folders and _category_.json', () => {
    const tree = collectContent({
      files: [
        md('docs/index.md', 'title: Docs home'),
        md('docs/zeta.md', 'title: Zeta'),
        md('docs/alpha.md', 'title: Alpha'),
        md('docs/first.md', 'title: First\nsidebar_position: 1'),
        md('docs/topic/index.md', 'title: Topic overview\nsidebar_position: 2'),
        md('docs/topic/detail.md', 'title: Detail'),
        md('docs/labelled/page.md', 'title: Page'),
      ],
      // A Docusaurus category file as it is: `link` and `className` change nothing here.
      categories: [{ rel: 'docs/labelled/_category_.json', text: '{ "label": "Labelled folder", "position": 3, "link": { "type": "generated-index" }, "className": "red" }' }],
      sidebars,
      displayPrefix: 'content/',
    });
    expect(tree.sidebars.docs).toEqual([
      { type: 'doc', label: 'Docs home', route: '/docs' },
      { type: 'doc', label: 'First', route: '/docs/first' },
      { type: 'category', label: 'Topic overview', route: '/docs/topic', items: [{ type: 'doc', label: 'Detail', route: '/docs/topic/detail' }] },
      { type: 'category', label: 'Labelled folder', items: [{ type: 'doc', label: 'Page', route: '/docs/labelled/page' }] },
      { type: 'doc', label: 'Alpha', route: '/docs/alpha' },
      { type: 'doc', label: 'Zeta', route: '/docs/zeta' },
    ]);
    const detail = tree.docs.find((doc) => doc.route === '/docs/topic/detail')!;
    expect(detail.breadcrumbs).toEqual([{ label: 'Topic overview', route: '/docs/topic' }]);
    expect(detail.prev).toEqual({ route: '/docs/topic', label: 'Topic overview' });
    expect(detail.next).toEqual({ route: '/docs/labelled/page', label: 'Page' });
  });

  it('collected again with some files unchanged (docs serve), gives the same tree as from scratch', () => {
    const files = [md('docs/index.md', 'title: Docs home'), md('docs/a.md', 'title: A'), md('docs/b.md', 'title: B'), md('wiki/w.md', 'title: W')];
    const options = { categories: [], sidebars, displayPrefix: 'content/' };
    const first = collectContent({ ...options, files });
    // b.md saved with a new title and a position; the other file objects are passed again as they were.
    const saved = [...files.slice(0, 2), md('docs/b.md', 'title: Bee\nsidebar_position: 1'), files[3]!];
    const again = collectContent({ ...options, files: saved }, first);
    const fresh = collectContent({ ...options, files: saved.map((file) => ({ ...file })) });
    expect(again).toEqual(fresh);
    // The wiki sidebar, none of whose files changed, is the previous one; the docs sidebar is made again.
    expect(again.sidebars.wiki).toBe(first.sidebars.wiki);
    expect(again.sidebars.docs).not.toBe(first.sidebars.docs);
    expect(again.sidebars.docs!.map((item) => item.label)).toEqual(['Docs home', 'Bee', 'A']);
    expect(again.docs.find((doc) => doc.rel === 'docs/a.md')!.prev).toEqual({ route: '/docs/b', label: 'Bee' });
    // The first tree's docs were not changed by the second collection.
    expect(first.docs.find((doc) => doc.rel === 'docs/a.md')!.prev).toEqual({ route: '/docs', label: 'Docs home' });
    // A category file changed: every sidebar is made again.
    const labelled = collectContent({ ...options, categories: [{ rel: 'wiki/_category_.json', text: '{ "label": "Wiki home" }' }], files: saved }, again);
    expect(labelled.sidebars.wiki).not.toBe(again.sidebars.wiki);
    expect(labelled).toEqual(collectContent({ ...options, categories: [{ rel: 'wiki/_category_.json', text: '{ "label": "Wiki home" }' }], files: saved.map((file) => ({ ...file })) }));
    // Other sidebars or another homepage read the same file objects anew.
    const moved = collectContent({ ...options, files: saved, sidebars: [{ id: 'all', label: 'All', dir: '.' }], homepageDoc: 'docs/a' });
    expect(moved.docs.map((doc) => [doc.route, doc.sidebar])).toEqual([
      ['/', 'all'],
      ['/docs/b', 'all'],
      ['/docs', 'all'],
      ['/wiki/w', 'all'],
    ]);
  });

  it('takes a save that changed bodies alone without collecting again, and refuses any other', () => {
    const files = [md('docs/index.md', 'title: Docs home'), md('docs/a.md', 'title: A', 'Old body.'), md('wiki/w.md', 'title: W')];
    const options = { categories: [], sidebars, displayPrefix: 'content/' };
    const first = collectContent({ ...options, files });
    const body = md('docs/a.md', 'title: A', 'New body.');
    const saved = withBodies(first, [body], { ...options, files: [files[0]!, body, files[2]!] })!;
    const at = first.docs.findIndex((doc) => doc.rel === 'docs/a.md');
    expect(saved.changed).toEqual([at]);
    expect(saved.tree.docs[at]!.body).toContain('New body.');
    expect(saved.tree.sidebars).toBe(first.sidebars);
    expect(saved.tree.docs.filter((doc, i) => doc !== first.docs[i])).toEqual([saved.tree.docs[at]]);
    expect(saved.tree).toEqual(collectContent({ ...options, files: [files[0]!, body, files[2]!].map((file) => ({ ...file })) }));
    // What a sidebar or route shows, a problem, or a file that was not there: collected again.
    for (const file of [md('docs/a.md', 'title: Renamed'), md('docs/a.md', 'title: A\nsidebar_position: 3'), md('docs/a.md', 'title: A\nslug: /moved'), md('docs/a.md', 'title: [unclosed'), md('docs/new.md', 'title: New')]) {
      expect(withBodies(saved.tree, [file], { ...options, files: [...files, file] }), file.text).toBeUndefined();
    }
    // A tree made that way is a previous tree like any other: the sidebars of unchanged files are kept.
    const renamed = md('docs/a.md', 'title: Renamed', 'New body.');
    const again = collectContent({ ...options, files: [files[0]!, renamed, files[2]!] }, saved.tree);
    expect(again.sidebars.wiki).toBe(first.sidebars.wiki);
    expect(again.sidebars.docs!.map((item) => item.label)).toEqual(['Docs home', 'Renamed']);
  });

  it('collects every problem before failing: duplicates, outsiders and bad category files', () => {
    let error: unknown;
    try {
      collectContent({
        files: [md('docs/a.md', 'title: A'), md('docs/a/index.md', 'title: A again'), md('other/x.md', 'title: X')],
        categories: [{ rel: 'docs/a/_category_.json', text: '{ "lable": "A" }' }],
        sidebars,
        displayPrefix: 'content/',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DocsError);
    const messages = (error as DocsError).diagnostics.map((d) => `${d.file}: ${d.message}${d.fix ? ` (${d.fix})` : ''}`);
    expect(messages).toContain('content/docs/a/_category_.json: `lable` is not a known key (did you mean `label`?)');
    expect(messages.some((m) => m.startsWith('content/other/x.md: is outside every sidebar'))).toBe(true);
    expect(messages.some((m) => m.includes('has the route /docs/a, which content/docs/a'))).toBe(true);
  });

  it('names the line and column where a _category_.json stops being JSON', () => {
    const placeOf = (text: string): string => {
      try {
        collectContent({ files: [md('docs/a.md', 'title: A')], categories: [{ rel: 'docs/_category_.json', text }], sidebars, displayPrefix: 'content/' });
      } catch (error) {
        const [d] = (error as DocsError).diagnostics;
        return `${d!.line}:${d!.column} ${d!.message}`;
      }
      return 'no error';
    };
    // A missing comma, an unquoted word (V8 gives no position for it), a trailing comma, a file cut short.
    expect(placeOf('{\n  "label": "Deploy"\n  "position": 2\n}\n')).toMatch(/^3:3 is not valid JSON: /);
    expect(placeOf('{\n  "label": Deploy\n}\n')).toMatch(/^2:12 is not valid JSON: Unexpected token 'D'/);
    expect(placeOf('{\n  "label": "Deploy",\n}\n')).toMatch(/^3:1 is not valid JSON: /);
    expect(placeOf('{\n  "label": "Deploy",\n')).toMatch(/^3:1 is not valid JSON: /);
  });

  it('reads a Docusaurus folder: number prefixes order and leave ids and routes, dates and versions keep theirs', () => {
    const tree = collectContent({
      files: [
        md('docs/index.md', 'title: Docs home'),
        md('docs/10-last.md', 'title: Last'),
        md('docs/02-second.md', 'title: Second'),
        md('docs/1.2-release-notes.md', 'title: Release notes 1.2'),
        md('docs/2024-05-retro.md', 'title: Retro'),
        md('docs/01-guides/02-deploy.md', 'title: Deploy'),
        md('docs/01-guides/01 - setup.md', 'title: Setup'),
        md('docs/01-guides/03-pinned.md', 'title: Pinned\nsidebar_position: 0'),
        { rel: 'docs/05-no-title-here.md', text: 'Text.' },
      ],
      categories: [],
      sidebars,
      displayPrefix: 'content/',
    });
    const byRel = Object.fromEntries(tree.docs.map((doc) => [doc.rel, doc]));
    expect(byRel['docs/02-second.md']).toMatchObject({ id: 'docs/second', route: '/docs/second', position: 2 });
    expect(byRel['docs/01-guides/01 - setup.md']).toMatchObject({ id: 'docs/guides/setup', route: '/docs/guides/setup', position: 1 });
    expect(byRel['docs/05-no-title-here.md']).toMatchObject({ title: 'No title here', route: '/docs/no-title-here' });
    // A version and a date are names, not prefixes.
    expect(byRel['docs/1.2-release-notes.md']).toMatchObject({ route: '/docs/1.2-release-notes', position: undefined });
    expect(byRel['docs/2024-05-retro.md']).toMatchObject({ route: '/docs/2024-05-retro', position: undefined });
    expect(tree.sidebars.docs).toEqual([
      { type: 'doc', label: 'Docs home', route: '/docs' },
      {
        type: 'category',
        label: 'Guides',
        items: [
          { type: 'doc', label: 'Pinned', route: '/docs/guides/pinned' },
          { type: 'doc', label: 'Setup', route: '/docs/guides/setup' },
          { type: 'doc', label: 'Deploy', route: '/docs/guides/deploy' },
        ],
      },
      { type: 'doc', label: 'Second', route: '/docs/second' },
      { type: 'doc', label: 'No title here', route: '/docs/no-title-here' },
      { type: 'doc', label: 'Last', route: '/docs/last' },
      { type: 'doc', label: 'Release notes 1.2', route: '/docs/1.2-release-notes' },
      { type: 'doc', label: 'Retro', route: '/docs/2024-05-retro' },
    ]);
    expect(tree.routeOfFile['docs/01-guides/02-deploy.md']).toBe('/docs/guides/deploy');
  });

  it("takes a folder's README.md or the page named as the folder as its own page, index.md first", () => {
    const tree = collectContent({
      files: [
        md('docs/README.md', 'title: Docs readme'),
        md('docs/a.md', 'title: A'),
        md('docs/recipes/README.md', 'title: Cookbook'),
        md('docs/recipes/soup.md', 'title: Soup'),
        md('docs/02-tools/Tools.md', 'title: Tools overview'),
        md('docs/02-tools/hammer.md', 'title: Hammer'),
        // Named as its folder, but a slug of its own (a generated API operation, say): a page of the folder.
        md('docs/login/login.md', 'title: Log in\nslug: /docs/login/post-login'),
        md('docs/login/logout.md', 'title: Log out'),
        md('docs/both/index.md', 'title: Both'),
        md('docs/both/readme.md', 'title: Read me\nslug: readme'),
      ],
      categories: [],
      sidebars,
      displayPrefix: 'content/',
    });
    const routes = Object.fromEntries(tree.docs.map((doc) => [doc.rel, doc.route]));
    expect(routes).toMatchObject({ 'docs/README.md': '/docs', 'docs/recipes/README.md': '/docs/recipes', 'docs/02-tools/Tools.md': '/docs/tools', 'docs/login/login.md': '/docs/login/post-login', 'docs/both/readme.md': '/docs/both/readme' });
    expect(tree.sidebars.docs).toEqual([
      { type: 'doc', label: 'Docs readme', route: '/docs' },
      { type: 'category', label: 'Tools overview', route: '/docs/tools', items: [{ type: 'doc', label: 'Hammer', route: '/docs/tools/hammer' }] },
      { type: 'doc', label: 'A', route: '/docs/a' },
      { type: 'category', label: 'Both', route: '/docs/both', items: [{ type: 'doc', label: 'Read me', route: '/docs/both/readme' }] },
      { type: 'category', label: 'Login', items: [{ type: 'doc', label: 'Log in', route: '/docs/login/post-login' }, { type: 'doc', label: 'Log out', route: '/docs/login/logout' }] },
      { type: 'category', label: 'Cookbook', route: '/docs/recipes', items: [{ type: 'doc', label: 'Soup', route: '/docs/recipes/soup' }] },
    ]);
  });

  it('names a folder with two own pages, and a homepage written with the number prefix', () => {
    const problems = (files: { rel: string; text: string }[], homepageDoc?: string): string[] => {
      try {
        checkHomepage(collectContent({ files, categories: [], sidebars, displayPrefix: 'content/' }), homepageDoc, 'site.config.ts');
      } catch (error) {
        return (error as DocsError).diagnostics.map((d) => `${d.file}${d.pointer ?? ''}: ${d.message} (${d.fix})`);
      }
      return [];
    };
    expect(problems([md('docs/guide/index.md', 'title: I'), md('docs/guide/README.md', 'title: R')])).toEqual([
      "content/docs/guide/index.md: has the route /docs/guide, which content/docs/guide/README.md already has (index.md, README.md and a page named as its folder are each the folder's own page: keep one, and rename the other (e.g. to overview.md))",
    ]);
    expect(problems([md('docs/01-welcome.md', 'title: Welcome')], 'docs/01-welcome')).toEqual([
      'site.config.ts/homepage/doc: `homepage.doc` names "docs/01-welcome", but a number prefix orders pages and is no part of their ids: docs/01-welcome.md is the page "docs/welcome" (write "docs/welcome")',
    ]);
    expect(problems([md('docs/01-welcome.md', 'title: Welcome')], 'docs/welcome')).toEqual([]);
  });

  it('reads an .mdx page as markdown, and refuses its MDX imports and exports at their lines', () => {
    const tree = collectContent({ files: [md('docs/guide.mdx', 'title: Guide'), md('docs/02-more/README.mdx', 'title: More')], categories: [], sidebars, displayPrefix: 'content/' });
    expect(tree.docs.map((doc) => [doc.id, doc.route])).toEqual([
      ['docs/more/README', '/docs/more'],
      ['docs/guide', '/docs/guide'],
    ]);
    const body = "import Tabs from '@theme/Tabs';\n\nText.\n\n```js\nimport x from 'y';\n```\n\nexport const meta = {};\n";
    let error: unknown;
    try {
      collectContent({ files: [{ rel: 'docs/a.mdx', text: `---\ntitle: A\n---\n${body}` }, md('docs/a.md', 'title: Also A')], categories: [], sidebars, displayPrefix: 'content/' });
    } catch (caught) {
      error = caught;
    }
    expect((error as DocsError).diagnostics.map((d) => `${d.file}:${d.line ?? ''} ${d.message}`)).toEqual([
      'content/docs/a.mdx:4 MDX `import` is not read: an .mdx page is built as plain markdown, without JSX components',
      'content/docs/a.mdx:12 MDX `export` is not read: an .mdx page is built as plain markdown, without JSX components',
      'content/docs/a.mdx: has the route /docs/a, which content/docs/a.md already has',
    ]);
  });

  it("follows Docusaurus' pagination keys: a link to another page, none, or a label of its own", () => {
    const tree = collectContent({
      files: [
        md('docs/a.md', 'title: A\nsidebar_position: 1\npagination_prev: null'),
        md('docs/b.md', 'title: B\nsidebar_position: 2\npagination_label: The second page'),
        md('docs/c.md', 'title: C\nsidebar_position: 3\npagination_next: wiki/w'),
        md('docs/d.md', 'title: D\nsidebar_position: 4\npagination_next: null'),
        md('wiki/w.md', 'title: W'),
      ],
      categories: [],
      sidebars,
      displayPrefix: 'content/',
    });
    const links = Object.fromEntries(tree.docs.map((doc) => [doc.id, [doc.prev?.label, doc.next?.label]]));
    expect(links).toEqual({
      'docs/a': [undefined, 'The second page'],
      'docs/b': ['A', 'C'],
      'docs/c': ['The second page', 'W'],
      'docs/d': ['C', undefined],
      'wiki/w': [undefined, undefined],
    });
    expect(tree.docs.find((doc) => doc.id === 'docs/c')!.next).toEqual({ route: '/wiki/w', label: 'W' });
    let error: unknown;
    try {
      collectContent({ files: [md('docs/a.md', 'title: A\npagination_next: docs/bee'), md('docs/b.md', 'title: B')], categories: [], sidebars, displayPrefix: 'content/' });
    } catch (caught) {
      error = caught;
    }
    // At the key's line (the frontmatter's third: after `---` and the title).
    expect((error as DocsError).diagnostics.map((d) => `${d.file}:${d.line}#${d.pointer}: ${d.message} (${d.fix})`)).toEqual(['content/docs/a.md:3#/pagination_next: `pagination_next` names "docs/bee", which is no page\'s id (write "docs/b")']);
  });

  it('refuses two routes that differ only in letter case, which are one folder on macOS and Windows', () => {
    let error: unknown;
    try {
      collectContent({ files: [md('docs/Setup/index.md', 'title: Setup'), md('docs/setup.md', 'title: setup'), md('docs/API.md', 'title: API'), md('docs/b.md', 'title: B\nslug: api')], categories: [], sidebars, displayPrefix: 'content/' });
    } catch (caught) {
      error = caught;
    }
    expect((error as DocsError).diagnostics.map((d) => `${d.file}:${d.line ?? ''} ${d.message}`)).toEqual([
      'content/docs/b.md:3 has the route /docs/api (by its `slug` on line 3), which differs from /docs/API of content/docs/API.md only in letter case: on macOS and Windows their output folders are one, and one page would overwrite the other',
      'content/docs/setup.md: has the route /docs/setup, which differs from /docs/Setup of content/docs/Setup/index.md only in letter case: on macOS and Windows their output folders are one, and one page would overwrite the other',
    ]);
  });

  it('composes accented letters in routes, and names two files whose names differ only in how an accent is encoded (a file named on macOS beside one named elsewhere)', () => {
    const composed = 'docs/caf\u00e9.md';
    const decomposed = 'docs/cafe\u0301.md';
    let error: unknown;
    try {
      collectContent({ files: [md(composed, 'title: Café'), md(decomposed, 'title: Café again')], categories: [], sidebars, displayPrefix: 'content/' });
    } catch (caught) {
      error = caught;
    }
    const [problem] = (error as DocsError).diagnostics;
    expect((error as DocsError).diagnostics).toHaveLength(1);
    expect(problem!.message).toBe('has the route /docs/caf\u00e9, which content/docs/cafe\u0301.md has too: their names differ only in how an accented letter is encoded (one character, or a letter and a combining accent), which looks the same everywhere, and a route takes the composed form (one character)');
    expect(problem!.file).toBe('content/docs/caf\u00e9.md');
    expect(problem!.fix).toBe('keep one of the two pages (one may be a copy of the other, saved on another system), or rename one so the names differ by more than the encoding of a letter');
    // A page alone, its name decomposed: its route is composed.
    expect(collectContent({ files: [md(decomposed, 'title: Café')], categories: [], sidebars, displayPrefix: 'content/' }).docs[0]!.route).toBe('/docs/caf\u00e9');
  });

  it('reads _category_.yml as _category_.json, and refuses both in one folder', () => {
    const tree = collectContent({ files: [md('docs/a/page.md', 'title: Page')], categories: [{ rel: 'docs/a/_category_.yml', text: 'label: From YAML\nposition: 3\ncollapsed: false\n' }], sidebars, displayPrefix: 'content/' });
    expect(tree.sidebars.docs).toEqual([{ type: 'category', label: 'From YAML', items: [{ type: 'doc', label: 'Page', route: '/docs/a/page' }] }]);
    const problems = (categories: { rel: string; text: string }[]): string[] => {
      try {
        collectContent({ files: [md('docs/a/page.md', 'title: Page')], categories, sidebars, displayPrefix: 'content/' });
      } catch (error) {
        return (error as DocsError).diagnostics.map((d) => `${d.file}:${d.line ?? ''} ${d.message}`);
      }
      return [];
    };
    expect(problems([{ rel: 'docs/a/_category_.json', text: '{"label": "J"}' }, { rel: 'docs/a/_category_.yml', text: 'label: Y' }])).toEqual(['content/docs/a/_category_.yml: describes the folder content/docs/a a second time']);
    expect(problems([{ rel: 'docs/a/_category_.yml', text: 'label: Y\nposition: 1\nposition: 2\n' }])[0]).toMatch(/^content\/docs\/a\/_category_\.yml:3 is not valid YAML: Map keys must be unique/);
    expect(problems([{ rel: 'docs/a/_category_.yml', text: 'lable: Y\n' }])).toEqual(['content/docs/a/_category_.yml: `lable` is not a known key']);
  });

  it('refuses an empty content folder', () => {
    expect(() => collectContent({ files: [], categories: [], sidebars, displayPrefix: 'content/' })).toThrow(/holds no markdown page/);
  });

  it('read lean (docs build), keeps each page but its body, whose hash stands for it', () => {
    const files = () => [md('docs/index.md', 'title: Docs home'), md('docs/a.md', 'title: A', '# Not the title\n\nÄ body with ünïcode.'), { rel: 'docs/b.md', text: '# B from its heading\n\nText.' }, md('wiki/w.md', 'title: W')];
    const options = { categories: [], sidebars, displayPrefix: 'content/' };
    const full = collectContent({ ...options, files: files() });
    const lean = files();
    for (const file of lean) {
      readPageLean(file, options);
      file.text = '';
    }
    const tree = collectContent({ ...options, files: lean });
    expect(tree.docs.map((doc) => doc.body)).toEqual([undefined, undefined, undefined, undefined]);
    expect(tree.docs.map((doc) => doc.bodyHash)).toEqual(full.docs.map((doc) => hash(doc.body!)));
    expect(tree.docs.map((doc) => doc.title)).toEqual(['A', 'B from its heading', 'Docs home', 'W']);
    // In its place, what the body costs a render thread (lanes.ts).
    expect(tree.docs.map((doc) => doc.cost)).toEqual(full.docs.map((doc) => pageCost(doc.body!)));
    expect({ ...tree, docs: tree.docs.map((doc) => ({ ...doc, body: undefined, cost: undefined })) }).toEqual({ ...full, docs: full.docs.map((doc) => ({ ...doc, body: undefined })) });
  });
});
