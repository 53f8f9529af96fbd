import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, readRoute, REPO, runDocs, snapshotTree } from '../support/site';

describe('last-update data from git', () => {
  it('shows the author and date of the last commit that touched each file', () => {
    const site = copyFixture('basic');
    const git = (...args: string[]): void => {
      execFileSync('git', args, { cwd: site, env: { ...process.env, GIT_AUTHOR_DATE: '2025-03-14T12:00:00Z', GIT_COMMITTER_DATE: '2025-03-14T12:00:00Z' } });
    };
    git('init', '-q');
    git('add', '.');
    git('-c', 'user.name=Ada Lovelace', '-c', 'user.email=ada@quad.example', 'commit', '-qm', 'docs: first');
    appendFileSync(join(site, 'content/guide/faq.md'), '\nOne more answer.\n');
    execFileSync('git', ['-c', 'user.name=Grace Hopper', '-c', 'user.email=grace@quad.example', 'commit', '-qam', 'docs: faq'], {
      cwd: site,
      env: { ...process.env, GIT_AUTHOR_DATE: '2025-06-01T09:30:00Z', GIT_COMMITTER_DATE: '2025-06-01T09:30:00Z' },
    });
    writeFileSync(join(site, 'content/guide/untracked.md'), '---\ntitle: Untracked\n---\n\nNot committed yet.\n');
    const leapDay = new Date('2024-02-29T10:00:00.000Z');
    utimesSync(join(site, 'content/guide/untracked.md'), leapDay, leapDay);
    expect(runDocs(['build', '--root', site]).code).toBe(0);
    const dist = join(site, 'dist');
    expect(readRoute(dist, '/guide/install')).toContain('Last updated on <time dateTime="2025-03-14T12:00:00.000Z">14 March 2025</time> by <b>Ada Lovelace</b>');
    expect(readRoute(dist, '/guide/faq')).toContain('Last updated on <time dateTime="2025-06-01T09:30:00.000Z">1 June 2025</time> by <b>Grace Hopper</b>');
    const untracked = readRoute(dist, '/guide/untracked');
    // A file git does not track shows its modification time.
    expect(untracked).toContain('Last updated on <time dateTime="2024-02-29T10:00:00.000Z">29 February 2024</time></span>');
    expect(untracked).not.toContain(' by <b>');
  });
});

/** Each output file's inode: a file moved in by a rebuild is a new file (a new inode); one left alone keeps its inode. */
const inodesOf = (dist: string): Map<string, number> => new Map([...snapshotTree(dist).keys()].map((file) => [file, statSync(join(dist, file)).ino]));

describe('rebuilds', () => {
  it('reuses every unchanged page and produces the same bytes', () => {
    const site = copyFixture('basic');
    expect(runDocs(['build', '--root', site]).code).toBe(0);
    const first = snapshotTree(join(site, 'dist'));
    const again = runDocs(['build', '--root', site]);
    expect(again.stdout).toMatch(/Built 6 pages in [\d.]+ s \(6 from cache\)/);
    expect(snapshotTree(join(site, 'dist'))).toEqual(first);
  });

  it('writes nothing when nothing changed, yet repairs an output that was changed by hand', () => {
    const site = copyFixture('basic');
    const dist = join(site, 'dist');
    expect(runDocs(['build', '--root', site]).code).toBe(0);
    const first = snapshotTree(dist);
    // The very same folder stays in place: no staging folder was filled and swapped in.
    const folder = statSync(dist).ino;
    expect(runDocs(['build', '--root', site]).stdout).toMatch(/\(6 from cache\)/);
    expect(statSync(dist).ino).toBe(folder);
    expect(snapshotTree(dist)).toEqual(first);

    // A deleted page, a stray file and an edited manifest are each put right by the next build.
    rmSync(join(dist, 'guide/faq/index.html'));
    writeFileSync(join(dist, 'stray.txt'), 'left behind');
    expect(runDocs(['build', '--root', site]).code).toBe(0);
    expect(snapshotTree(dist)).toEqual(first);
    writeFileSync(join(dist, 'manifest.json'), '{}');
    expect(runDocs(['build', '--root', site]).code).toBe(0);
    expect(snapshotTree(dist)).toEqual(first);
    // Files changed in place, their folders untouched: a page emptied, another edited, the runtime
    // overwritten, a search shard damaged. It said "unchanged", or kept them since they were there.
    const app = readdirSync(join(dist, 'assets')).find((file) => /^app\..*\.js$/.test(file))!;
    const shard = readdirSync(join(dist, 'assets/search')).find((file) => file.startsWith('t-'))!;
    writeFileSync(join(dist, 'guide/install/index.html'), '');
    writeFileSync(join(dist, 'guide/faq/index.html'), readFileSync(join(dist, 'guide/faq/index.html'), 'utf8').replace('Rails', 'Sinatra'));
    writeFileSync(join(dist, 'assets', app), 'corrupt');
    writeFileSync(join(dist, 'assets/search', shard), '{}');
    const repaired = runDocs(['build', '--root', site, '--json']);
    expect(repaired.code).toBe(0);
    expect(repaired.stdout).not.toContain('"unchanged":true');
    expect(snapshotTree(dist)).toEqual(first);
  });

  it('repairs an output changed by hand in the same rebuild that renders an edited page', () => {
    const site = copyFixture('basic');
    const dist = join(site, 'dist');
    expect(runDocs(['build', '--root', site]).code).toBe(0);
    // Several rebuilds in a row, each with a page edited and the output changed by hand in another way.
    const faq = join(site, 'content/guide/faq.md');
    const changes: [string, () => void][] = [
      ['a page file deleted', () => rmSync(join(dist, 'guide/install/index.html'))],
      ['a stray file added', () => writeFileSync(join(dist, 'guide/stray.html'), 'left behind')],
      ['a search file deleted', () => rmSync(join(dist, 'assets/search', readdirSync(join(dist, 'assets/search')).find((file) => file.startsWith('t-'))!))],
      ['a page folder deleted', () => rmSync(join(dist, 'guide/zebra'), { recursive: true })],
      // Each term shard edited in place: those the edit changes are then no page's, and go like any stale file.
      ['the search shards edited in place', () => readdirSync(join(dist, 'assets/search')).filter((file) => file.startsWith('t-')).forEach((file) => appendFileSync(join(dist, 'assets/search', file), ' '))],
      ['nothing', () => undefined],
    ];
    for (const [i, [what, change]] of changes.entries()) {
      appendFileSync(faq, `\nAnswer ${i}: ask the backend team.\n`);
      change();
      expect(runDocs(['build', '--root', site]).stdout, what).toMatch(/Built 6 pages in [\d.]+ s \([45] from cache\)/);
      const clean = join(site, `clean-${i}`);
      expect(runDocs(['build', '--root', site, '--no-cache', '--out', clean]).code).toBe(0);
      expect(snapshotTree(dist), what).toEqual(snapshotTree(clean));
    }
  });

  it('repairs a damaged page chunk and image, whose names still say they are right, and keeps repairing after a --no-cache build', () => {
    const site = copyFixture('basic');
    const dist = join(site, 'dist');
    expect(runDocs(['build', '--root', site]).code).toBe(0);
    const clean = join(site, '..', 'clean');
    // A build without the cache into another folder leaves this folder's record alone.
    expect(runDocs(['build', '--root', site, '--no-cache', '--out', clean]).code).toBe(0);
    const first = snapshotTree(clean);
    expect(snapshotTree(dist)).toEqual(first);
    const chunk = readdirSync(join(dist, 'assets/pages')).find((file) => file.startsWith('guide_install.'))!;
    const image = readdirSync(join(dist, 'assets/images'))[0]!;
    // Damaged in place (a disk, a hand): the folders untouched, the names as before.
    writeFileSync(join(dist, 'assets/pages', chunk), 'export default null;');
    writeFileSync(join(dist, 'assets/images', image), '');
    writeFileSync(join(dist, 'guide/faq/index.html'), '');
    const repaired = runDocs(['build', '--root', site]);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(snapshotTree(dist)).toEqual(first);
    // A build without the cache into this very folder, then damage: still repaired.
    expect(runDocs(['build', '--root', site, '--no-cache']).code).toBe(0);
    writeFileSync(join(dist, 'guide/install/index.html'), '');
    writeFileSync(join(dist, 'assets/pages', chunk), '');
    expect(runDocs(['build', '--root', site]).code).toBe(0);
    expect(snapshotTree(dist)).toEqual(first);
  });

  it('after a build that failed its link checks, still updates the output in place', () => {
    const site = copyFixture('basic');
    const dist = join(site, 'dist');
    expect(runDocs(['build', '--root', site]).code).toBe(0);
    const folder = statSync(dist).ino;
    const faq = join(site, 'content/guide/faq.md');
    const text = readFileSync(faq, 'utf8');
    writeFileSync(faq, `${text}\nSee [the old page](/guide/nowhere).\n`);
    const failed = runDocs(['build', '--root', site]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('broken link → /guide/nowhere');
    writeFileSync(faq, `${text}\nSee [the install guide](./install.md).\n`);
    const run = runDocs(['build', '--root', site]);
    expect(run.stdout).toMatch(/Built 6 pages in [\d.]+ s \(5 from cache\)/);
    // The same folder: the store still knew what the output held, and only the edited page moved in.
    expect(statSync(dist).ino).toBe(folder);
    expect(readRoute(dist, '/guide/faq')).toContain('the install guide');
  });

  it('re-renders a changed page and keeps the others', () => {
    const site = copyFixture('basic');
    expect(runDocs(['build', '--root', site]).code).toBe(0);
    const faq = join(site, 'content/guide/faq.md');
    writeFileSync(faq, readFileSync(faq, 'utf8').replace('Because the backend', 'Because our backend'));
    const run = runDocs(['build', '--root', site]);
    expect(run.stdout).toMatch(/Built 6 pages in [\d.]+ s \(5 from cache\)/);
    expect(readRoute(join(site, 'dist'), '/guide/faq')).toContain('Because our backend is a Rails application.');
  });

  it("renders a page added and the pages whose links name it, the others' markdown from the cache, and a page's new route in every link to it", () => {
    const site = copyFixture('basic');
    const dist = join(site, 'dist');
    // The FAQ links to a page not written yet: a warning, the link left as written.
    const faq = join(site, 'content/guide/faq.md');
    appendFileSync(faq, '\nSee also [the glossary](./glossary.md).\n');
    const first = runDocs(['build', '--root', site]);
    expect(first.stdout).toMatch(/Built 6 pages in [\d.]+ s \(0 from cache\), 1 warning/);
    const clean = (name: string): ReturnType<typeof snapshotTree> => {
      const out = join(site, '..', name);
      expect(runDocs(['build', '--root', site, '--no-cache', '--out', out]).code).toBe(0);
      return snapshotTree(out);
    };
    // The glossary is written: it and the FAQ, whose link now names it, are rendered; the four others
    // (laid out again for the sidebar that lists the glossary) take their markdown from the cache.
    const glossary = join(site, 'content/guide/glossary.md');
    writeFileSync(glossary, '---\ntitle: Glossary\n---\n\nA **lap** is one round of the track; a **beacon** is the tag a runner carries.\n');
    const added = runDocs(['build', '--root', site]);
    expect(added.stdout).toMatch(/Built 7 pages in [\d.]+ s \(5 from cache\), 0 warnings/);
    expect(readRoute(dist, '/guide/faq')).toContain('href="/guide/glossary"');
    expect(snapshotTree(dist)).toEqual(clean('clean-added'));
    // The install page moves to /setup: the two pages that link to it get the new address.
    const install = join(site, 'content/guide/install.md');
    writeFileSync(install, readFileSync(install, 'utf8').replace(/^---\n/, '---\nslug: /setup\n'));
    const moved = runDocs(['build', '--root', site]);
    expect(moved.code).toBe(0);
    expect(readRoute(dist, '/guide')).toContain('href="/setup"');
    expect(readRoute(dist, '/')).toContain('href="/setup"');
    expect(snapshotTree(dist)).toEqual(clean('clean-moved'));
    // The glossary goes again: the FAQ's link is left as written and warned of once more.
    rmSync(glossary);
    const removed = runDocs(['build', '--root', site]);
    expect(removed.stdout).toMatch(/Built 6 pages in [\d.]+ s \([45] from cache\), 1 warning/);
    expect(snapshotTree(dist)).toEqual(clean('clean-removed'));
  });

  it('lays every page out again when the template changes, taking each page\'s markdown from the cache', () => {
    const site = copyFixture('basic');
    expect(runDocs(['build', '--root', site]).code).toBe(0);
    mkdirSync(join(site, 'templates'));
    writeFileSync(join(site, 'templates/page.html'), readFileSync(join(REPO, 'templates/page.html'), 'utf8').replace('<head>', '<head>\n    <meta name="generator" content="quad-docs" />'));
    const run = runDocs(['build', '--root', site]);
    expect(run.stdout).toMatch(/Built 6 pages in [\d.]+ s \(6 from cache\)/);
    const faq = readRoute(join(site, 'dist'), '/guide/faq');
    expect(faq).toContain('<meta name="generator" content="quad-docs" />');
    expect(faq).toContain('Because the backend is a Rails application.');
    // A page whose markdown changed as well is rendered afresh; the other five still come from the cache.
    writeFileSync(join(site, 'templates/page.html'), readFileSync(join(REPO, 'templates/page.html'), 'utf8'));
    const file = join(site, 'content/guide/faq.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace('Because the backend', 'Because our backend'));
    expect(runDocs(['build', '--root', site]).stdout).toMatch(/Built 6 pages in [\d.]+ s \(5 from cache\)/);
    expect(readRoute(join(site, 'dist'), '/guide/faq')).toContain('Because our backend is a Rails application.');
  });

  it('gives a changed image a new name on every page that shows it, whether the page is reused or laid out from the markdown cache', () => {
    const site = copyFixture('basic');
    const dist = join(site, 'dist');
    const svg = join(site, 'content/guide/img/diagram.svg');
    const imageOf = (): string => /src="\/(assets\/images\/diagram\.[0-9a-f]{8}\.svg)"/.exec(readRoute(dist, '/guide/install'))![1]!;
    expect(runDocs(['build', '--root', site]).code).toBe(0);
    const first = imageOf();

    // Only the image changes: the page that shows it is rendered again, the other five are reused.
    writeFileSync(svg, readFileSync(svg, 'utf8').replace('</svg>', '<!-- v2 --></svg>'));
    expect(runDocs(['build', '--root', site]).stdout).toMatch(/\(5 from cache\)/);
    const second = imageOf();
    expect(second).not.toBe(first);
    expect(readFileSync(join(dist, second), 'utf8')).toContain('<!-- v2 -->');
    expect(existsSync(join(dist, first))).toBe(false);

    // The image and the template change: every page is laid out again, all but the image's page from the markdown cache.
    writeFileSync(svg, readFileSync(svg, 'utf8').replace('<!-- v2 -->', '<!-- v3 -->'));
    mkdirSync(join(site, 'templates'));
    writeFileSync(join(site, 'templates/page.html'), readFileSync(join(REPO, 'templates/page.html'), 'utf8').replace('<head>', '<head>\n    <meta name="generator" content="quad-docs" />'));
    expect(runDocs(['build', '--root', site]).stdout).toMatch(/\(5 from cache\)/);
    const third = imageOf();
    expect(third).not.toBe(second);
    expect(readFileSync(join(dist, third), 'utf8')).toContain('<!-- v3 -->');
  });

  it('re-renders only the pages of the sidebar whose title changed, and leaves every other file as it was', () => {
    const site = copyFixture('basic');
    const dist = join(site, 'dist');
    expect(runDocs(['build', '--root', site]).code).toBe(0);
    const before = inodesOf(dist);
    const zebra = join(site, 'content/guide/zebra.md');
    writeFileSync(zebra, readFileSync(zebra, 'utf8').replace('title: Zebra', 'title: Zebras'));
    expect(runDocs(['build', '--root', site]).code).toBe(0);
    const after = inodesOf(dist);
    const replaced = [...after].filter(([file, inode]) => before.get(file) !== inode).map(([file]) => file);
    // Every page of the guide sidebar shows the new title in its sidebar: all five are new files.
    for (const route of ['guide', 'guide/install', 'guide/faq', 'guide/advanced/tuning', 'guide/zebra']) expect(replaced).toContain(`${route}/index.html`);
    expect(readRoute(dist, '/guide/faq')).toContain('>Zebras</a>');
    // The home page (another sidebar) is the very same file; so are the runtime, the image the guide
    // shows and every data chunk whose bytes did not change (named by their hash, they are not written
    // again). Only Zebra's neighbour names it in its data (its next link).
    expect(replaced).not.toContain('index.html');
    expect(replaced.filter((file) => file.startsWith('assets/') && !file.startsWith('assets/search/')).sort(), replaced.join(' ')).toEqual([expect.stringMatching(/^assets\/pages\/guide_advanced_tuning\./), expect.stringMatching(/^assets\/pages\/guide_zebra\./)]);
    expect(before.has('index.html')).toBe(true);
  });

  it('renders an edited page at once and the many pages its new title reaches beside it, each result in its place', () => {
    const site = copyFixture('basic');
    const dist = join(site, 'dist');
    // More pages in the guide's sidebar than one message of the warm thread holds: the rest go to a pool at once.
    for (let i = 1; i <= 12; i++) writeFileSync(join(site, `content/guide/lap-${String(i).padStart(2, '0')}.md`), `---\ntitle: Lap ${i}\n---\n\nLap ${i} of the race, counted by the beacons.\n`);
    expect(runDocs(['build', '--root', site]).code).toBe(0);
    const zebra = join(site, 'content/guide/zebra.md');
    writeFileSync(zebra, readFileSync(zebra, 'utf8').replace('title: Zebra', 'title: Zebras'));
    const run = runDocs(['build', '--root', site]);
    expect(run.code, run.stderr).toBe(0);
    expect(readRoute(dist, '/guide/lap-07')).toContain('>Zebras</a>');
    expect(readRoute(dist, '/guide/lap-07')).toContain('Lap 7 of the race');
    const clean = join(site, 'clean');
    expect(runDocs(['build', '--root', site, '--no-cache', '--out', clean]).code).toBe(0);
    expect(snapshotTree(dist)).toEqual(snapshotTree(clean));
  });

  it('leaves the output as it is when a page file was only touched (saved unchanged), though its page was rendered at once in case it changed', () => {
    const site = copyFixture('basic');
    const dist = join(site, 'dist');
    expect(runDocs(['build', '--root', site]).code).toBe(0);
    const before = inodesOf(dist);
    // Written again as it was, its modification time (the page's "last updated" without git) put back: only its ctime moved.
    const faq = join(site, 'content/guide/faq.md');
    const stats = statSync(faq);
    writeFileSync(faq, readFileSync(faq, 'utf8'));
    utimesSync(faq, stats.atime, stats.mtime);
    const run = runDocs(['build', '--root', site]);
    expect(run.stdout).toMatch(/Built 6 pages in [\d.]+ s \(6 from cache\)/);
    // No file of the output was written again, the search index's neither.
    expect([...inodesOf(dist)].filter(([file, inode]) => before.get(file) !== inode).map(([file]) => file)).toEqual([]);
    expect(readdirSync(site).filter((name) => name.startsWith('dist.'))).toEqual([]);
  });

  it('renders everything afresh with --no-cache, and leaves the package\'s runtime bundle for the builds reading it', () => {
    const site = copyFixture('basic');
    expect(runDocs(['build', '--root', site]).code).toBe(0);
    // The bundle other builds (other sites, docs serve) copy from at any moment: not removed and made again under them.
    const bundles = join(REPO, 'node_modules/.cache/docs/bundle');
    const stamps = (): string[] => readdirSync(bundles, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => `${join(entry.parentPath, entry.name)} ${statSync(join(entry.parentPath, entry.name)).ino} ${statSync(join(entry.parentPath, entry.name)).mtimeMs}`).sort();
    const before = stamps();
    expect(before.length).toBeGreaterThan(3);
    expect(runDocs(['build', '--root', site, '--no-cache']).stdout).toMatch(/\(0 from cache\)/);
    expect(stamps()).toEqual(before);
  });
});

describe('a build with nothing to do', () => {
  /** A `docs build --json` that must succeed, and its report. */
  const build = (site: string, extra: string[] = []): { unchanged: boolean; pages: number; cachedPages: number; warnings: { message: string }[] } => {
    const run = runDocs(['build', '--root', site, '--json', ...extra]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    return JSON.parse(run.stdout.trim().split('\n').pop()!) as never;
  };

  it('stops at once when neither the sources nor the output changed, with the same pages and warnings', () => {
    const site = copyFixture('basic');
    writeFileSync(join(site, 'content/guide/links.md'), '---\ntitle: Links\n---\n\nSee [the FAQ](./faq.md#no-such-heading).\n');
    const dist = join(site, 'dist');
    const first = build(site);
    expect(first.unchanged).toBe(false);
    expect(first.warnings).toHaveLength(1);
    const output = snapshotTree(dist);
    const again = build(site);
    expect(again).toMatchObject({ unchanged: true, pages: first.pages, cachedPages: first.pages });
    expect(again.warnings).toEqual(first.warnings);
    expect(snapshotTree(dist)).toEqual(output);
    // The text report reads as any build's, warnings included.
    const text = runDocs(['build', '--root', site]);
    expect(text.stdout).toMatch(/^Built 7 pages in [\d.]+ s \(7 from cache\), 1 warning → /);
    expect(text.stderr).toContain('no-such-heading');
  });

  it('builds in full after any change to what a build reads or writes, and stops at once after that', () => {
    const site = copyFixture('openapi');
    const dist = join(site, 'dist');
    const page = join(site, 'content/guide/index.md');
    const git = (...args: string[]): void => void execFileSync('git', ['-c', 'user.name=Ada', '-c', 'user.email=ada@quad.example', ...args], { cwd: site, stdio: 'ignore' });
    // The spec's response schema lives in a file of its own.
    const spec = join(site, 'specs/api.yaml');
    writeFileSync(spec, readFileSync(spec, 'utf8').replace("$ref: '#/components/schemas/Team'", "$ref: './schemas/team-summary.yaml'"));
    mkdirSync(join(site, 'specs/schemas'));
    writeFileSync(join(site, 'specs/schemas/team-summary.yaml'), 'type: object\nproperties:\n  name:\n    type: string\n');
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'first');
    expect(build(site).unchanged).toBe(false);
    expect(build(site).unchanged).toBe(true);
    // A file beside the spec that no $ref names is not read: nothing to do.
    writeFileSync(join(site, 'specs/notes.txt'), 'Ask the backend team before renaming an operation.\n');
    expect(build(site).unchanged).toBe(true);
    const changes: [string, () => void][] = [
      [
        'a page edited, its size and mtime put back',
        () => {
          const before = statSync(page);
          writeFileSync(page, readFileSync(page, 'utf8').replace(/e([^e]*)$/, 'E$1'));
          utimesSync(page, before.atime, before.mtime);
        },
      ],
      ['a page added', () => writeFileSync(join(site, 'content/guide/new.md'), '---\ntitle: New\n---\n\nA new page.\n')],
      ['a page removed', () => rmSync(join(site, 'content/guide/new.md'))],
      ['a file the OpenAPI spec\'s $ref names', () => appendFileSync(join(site, 'specs/schemas/team-summary.yaml'), '  size:\n    type: integer\n')],
      ['the OpenAPI spec', () => appendFileSync(spec, '# Reviewed.\n')],
      ['the config', () => appendFileSync(join(site, 'site.config.ts'), '\n// Reviewed.\n')],
      ['a template', () => (mkdirSync(join(site, 'templates')), writeFileSync(join(site, 'templates/favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>'))],
      ['a new commit (last-update dates)', () => git('commit', '-q', '--allow-empty', '-m', 'second')],
      ['a page of the output deleted', () => rmSync(join(dist, 'index.html'))],
      ['a stray file in an output folder', () => writeFileSync(join(dist, 'assets/stray.txt'), 'left behind')],
      ['the manifest edited', () => writeFileSync(join(dist, 'manifest.json'), '{}')],
    ];
    for (const [what, change] of changes) {
      change();
      expect(build(site).unchanged, what).toBe(false);
      expect(build(site).unchanged, `${what}, then nothing`).toBe(true);
    }
    // The config is compiled once and reused while none of its files changed: a file it imports, edited,
    // is compiled again and seen.
    const shared = join(site, '../_shared/config.ts');
    writeFileSync(shared, readFileSync(shared, 'utf8').replace("title: 'Docs',", "title: 'Handbook',"));
    expect(build(site).unchanged).toBe(false);
    expect(readFileSync(join(dist, 'index.html'), 'utf8')).toContain('Handbook');
    expect(build(site).unchanged).toBe(true);
    // What the full builds repaired is what a clean build writes.
    const kept = snapshotTree(dist);
    rmSync(dist, { recursive: true });
    build(site, ['--no-cache']);
    expect(snapshotTree(dist)).toEqual(kept);
    // Another output folder, or a gated build, is a build of its own.
    expect(build(site, ['--gate']).unchanged).toBe(false);
    expect(build(site, ['--out', join(site, 'elsewhere')]).unchanged).toBe(false);
  });
});
