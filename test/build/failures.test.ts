import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { copyFixture, REPO, runDocs, snapshotTree } from '../support/site';

/** A copy of the basic fixture with a good build in its dist/. */
function builtSite(): { site: string; dist: string; before: Map<string, string> } {
  const site = copyFixture('basic');
  const first = runDocs(['build', '--root', site]);
  expect(first.code).toBe(0);
  const dist = join(site, 'dist');
  return { site, dist, before: snapshotTree(dist) };
}

describe('docs build with bad input', () => {
  let site: string;
  let dist: string;
  let before: Map<string, string>;
  beforeEach(() => ({ site, dist, before } = builtSite()));

  it('fails on a link to a missing route with file:line:col → target, exit 1, and leaves dist/ byte-identical', () => {
    appendFileSync(join(site, 'content/guide/faq.md'), '\nSee [the old page](/guide/removed) and [another](../nowhere).\n');
    const run = runDocs(['build', '--root', site]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error content/guide/faq.md:11:5: broken link → /guide/removed: no page has the route /guide/removed');
    expect(run.stderr).toContain('content/guide/faq.md:11:40: broken link → ../nowhere: no page has the route /nowhere');
    expect(run.stderr).toContain('Build failed: 2 errors; the previous output was left untouched.');
    expect(snapshotTree(dist)).toEqual(before);
  });

  it('rejects two files on one route, naming both', () => {
    mkdirSync(join(site, 'content/guide/faq'));
    writeFileSync(join(site, 'content/guide/faq/index.md'), '---\ntitle: Another FAQ\n---\n\nText.\n');
    const run = runDocs(['build', '--root', site]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/content\/guide\/faq(\/index)?\.md: has the route \/guide\/faq, which content\/guide\/faq(\/index)?\.md already has/);
    expect(snapshotTree(dist)).toEqual(before);
  });

  it('names the line of the slug or id that put a page on a route another page has, and the key to change', () => {
    writeFileSync(join(site, 'content/guide/zebra.md'), '---\ntitle: Zebra\nslug: /guide/faq\n---\n\nText.\n');
    let run = runDocs(['build', '--root', site]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error content/guide/zebra.md:3: has the route /guide/faq (by its `slug` on line 3), which content/guide/faq.md already has');
    expect(run.stderr).toContain('fix: give one of them a different `slug`, or remove it');
    // The page found first made the route with its id: the other page is reported, with the first's line.
    writeFileSync(join(site, 'content/guide/a-first.md'), '---\ntitle: First\ndescription: Comes first.\nid: zebra\n---\n\nText.\n');
    writeFileSync(join(site, 'content/guide/zebra.md'), '---\ntitle: Zebra\n---\n\nText.\n');
    run = runDocs(['build', '--root', site]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error content/guide/zebra.md: has the route /guide/zebra, which content/guide/a-first.md (by its `id` on line 4) already has');
    expect(run.stderr).toContain('fix: give one of them a different `id`, or remove it');
    expect(snapshotTree(dist)).toEqual(before);
  });

  it('holds the announcement to the rules of a page: a link to no page fails the build, a script or a javascript: link never reaches it', () => {
    const config = join(site, 'site.config.ts');
    const announce = (content: string): void =>
      writeFileSync(config, `import { fixtureConfig } from '../_shared/config';\n\nexport default fixtureConfig({ announcement: { id: 'a1', content: ${JSON.stringify(content)}, backgroundColor: '#1f4e8c', textColor: '#ffffff', isCloseable: true } });\n`);
    const hostile = 'Read <a href="javascript:alert(1)">this</a><img src="https://quad.example/x.png" onerror="alert(2)"><script>alert(3)</script> first.';
    announce(`${hostile} Then <a href="/guide/gone#setup">the setup</a>.`);
    const broken = runDocs(['build', '--root', site]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('error site.config.ts#/announcement/content: broken link → /guide/gone#setup: no page has the route /guide/gone');
    expect(snapshotTree(dist)).toEqual(before);
    // On every page, a relative link leads somewhere else on each; a \ leads to another site.
    announce('Read <a href="./install">the install</a> and <a href="/\\evil.example/guide">the guide</a>.');
    const misleading = runDocs(['build', '--root', site]);
    expect(misleading.code).toBe(1);
    expect(misleading.stderr).toContain('error site.config.ts#/announcement/content: link to "./install" is relative: the announcement is on every page');
    expect(misleading.stderr).toContain('error site.config.ts#/announcement/content: link to "/\\evil.example/guide" leads to another site, evil.example');
    expect(snapshotTree(dist)).toEqual(before);
    announce(`${hostile} Then <a href="/guide/faq/">the FAQ</a>.`);
    const run = runDocs(['build', '--root', site]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('warning site.config.ts#/announcement/content: removed the link target "javascript:alert(1)"');
    const html = readFileSync(join(dist, 'guide', 'faq', 'index.html'), 'utf8');
    expect(html).toContain('<a href="/guide/faq/">the FAQ</a>');
    expect(html).not.toMatch(/javascript:|onerror|alert\(3\)/);
  });

  it("checks the announcement's images and anchors as a page's, and warns about what the cleaning removes (all passed in silence)", () => {
    const config = join(site, 'site.config.ts');
    const announce = (content: string): void =>
      writeFileSync(config, `import { fixtureConfig } from '../_shared/config';\n\nexport default fixtureConfig({ announcement: { id: 'a1', content: ${JSON.stringify(content)}, backgroundColor: '#1f4e8c', textColor: '#ffffff', isCloseable: true } });\n`);
    // A relative image loads from a different address on every page.
    announce('New: <img src="./img/banner.png" alt="banner"> read on.');
    const relative = runDocs(['build', '--root', site]);
    expect(relative.code).toBe(1);
    expect(relative.stderr).toContain('error site.config.ts#/announcement/content: image "./img/banner.png" is relative: the announcement is on every page, so it would load from a different address on each');
    expect(relative.stderr).toContain('fix: give its path from the content folder, e.g. /img/banner.png (it is copied as a page\'s image is), or its full URL');
    expect(snapshotTree(dist)).toEqual(before);
    // (A browser takes " /guide/img/…" as /guide/img/…: no relative image.)
    announce('New: <img src=" /guide/img/diagram.svg" alt="the rack"> <img src="/img/gone.png" alt="gone"> <a href="/guide/faq#nope">the FAQ</a>, <a href="/guide/faq#why-ruby">why Ruby</a>, <a href="https://quad.example" onclick="track()">the app</a><style>body{display:none}</style>');
    const run = runDocs(['build', '--root', site]);
    expect(run.code, run.stderr).toBe(0);
    for (const warning of [
      'warning site.config.ts#/announcement/content: image "/img/gone.png": no file content/img/gone.png, so it is left as written for the host to serve',
      'warning site.config.ts#/announcement/content: link → /guide/faq#nope: /guide/faq has no heading with the id "nope"',
      'warning site.config.ts#/announcement/content: the event handler `onclick` is removed: the announcement runs no scripts, as no page does',
      'warning site.config.ts#/announcement/content: `<style>` is not allowed in the announcement, so it is removed with what it holds',
    ]) expect(run.stderr).toContain(warning);
    expect(run.stderr).not.toContain('why-ruby');
    const html = readFileSync(join(dist, 'guide', 'index.html'), 'utf8');
    const src = /<img src="([^"]+)" alt="the rack">/.exec(html)?.[1];
    expect(src).toMatch(/^\/assets\/images\/diagram\.[0-9a-f]{8}\.svg$/);
    expect(existsSync(join(dist, src!))).toBe(true);
  });

  it('fails on a navbar item that leads to no page (it is on every page), naming the item', () => {
    const config = join(site, 'site.config.ts');
    writeFileSync(config, "import { fixtureConfig } from '../_shared/config';\n\nexport default fixtureConfig({ navbar: [{ label: 'Guide', to: '/guide' }, { label: 'Gone', to: '/removed-section' }, { label: 'Home', to: 'https://quad.example' }] });\n");
    const run = runDocs(['build', '--root', site]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error site.config.ts#/navbar/1/to: the navbar item "Gone" leads to /removed-section, and no page has the route /removed-section');
    expect(run.stderr).not.toContain('/navbar/0/');
    expect(snapshotTree(dist)).toEqual(before);
  });

  it('reports malformed frontmatter YAML with its line', () => {
    writeFileSync(join(site, 'content/guide/zebra.md'), '---\ntitle: Zebra\nsidebar_position: [1\n---\n\nText.\n');
    const run = runDocs(['build', '--root', site]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/content\/guide\/zebra\.md:3:\d+: frontmatter is not valid YAML/);
    expect(snapshotTree(dist)).toEqual(before);
  });

  it('suggests the right frontmatter key for a likely typo', () => {
    writeFileSync(join(site, 'content/guide/zebra.md'), '---\ntitle: Zebra\nsidebar_postion: 3\n---\n\nText.\n');
    const run = runDocs(['build', '--root', site]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('content/guide/zebra.md:3: frontmatter `sidebar_postion` is not a known key\n  fix: did you mean `sidebar_position`?');
    expect(snapshotTree(dist)).toEqual(before);
    // The keys read on their own (a value that may be null, a Docusaurus key that changes nothing) are keys too.
    writeFileSync(join(site, 'content/guide/zebra.md'), '---\ntitle: Zebra\ncustom_edit_ur: null\ncolour: red\n---\n\nText.\n');
    const other = runDocs(['build', '--root', site]);
    expect(other.stderr).toContain('content/guide/zebra.md:3: frontmatter `custom_edit_ur` is not a known key\n  fix: did you mean `custom_edit_url`?');
    const known = /zebra\.md:4: frontmatter `colour` is not a known key\n {2}fix: known keys: (.*)/.exec(other.stderr)?.[1]?.split(', ');
    expect(known).toEqual(expect.arrayContaining(['title', 'sidebar_position', 'custom_edit_url', 'pagination_next', 'pagination_prev', 'draft', 'unlisted', 'tags', 'image', 'displayed_sidebar']));
  });

  it('rejects a page outside every sidebar folder', () => {
    mkdirSync(join(site, 'content/stray'));
    writeFileSync(join(site, 'content/stray/page.md'), '# Stray\n');
    const run = runDocs(['build', '--root', site]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('content/stray/page.md: is outside every sidebar');
    expect(snapshotTree(dist)).toEqual(before);
  });

  it('refuses options that contradict each other or name nothing, before anything is built', () => {
    const cases: [args: string[], message: string, fix: string][] = [
      [['build', '--root', site, '--gate', '--no-gate'], 'error docs build: --gate and --no-gate say opposite things', 'fix: pass one of them, or neither (site.config.ts then decides)'],
      [['build', '--root', site, '--out='], 'error docs build: --out is empty', 'fix: name a folder, e.g. --out dist'],
      [['build', '--root', join(site, 'site.config.ts')], `error docs build: --root ${join(site, 'site.config.ts')} is a file; --root names the site's folder, the one holding site.config.ts`, `fix: --root ${site}`],
      [['serve', '--root', site, '--no-gate', '--gate', '--port', '0'], 'error docs serve: --gate and --no-gate say opposite things', 'docs serve did not start: 1 error.'],
    ];
    for (const [args, message, fix] of cases) {
      const run = runDocs(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stderr).toContain(fix);
    }
    expect(snapshotTree(dist)).toEqual(before);
  });

  it('prints at most 20 warnings of one file and counts the rest; --json lists every one', () => {
    // A generated changelog: the same heading for every release.
    writeFileSync(join(site, 'content/guide/changelog.md'), `---\ntitle: Changelog\n---\n\n${Array.from({ length: 25 }, (_, i) => `## Fixes\n\nRelease ${i + 1}.\n`).join('\n')}`);
    const run = runDocs(['build', '--root', site]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.match(/^warning content\/guide\/changelog\.md:\d+/gm)).toHaveLength(20);
    expect(run.stderr).toContain('warning content/guide/changelog.md: 4 more warnings in this file, not shown (docs build --json lists every one)');
    const json = JSON.parse(runDocs(['build', '--root', site, '--json', '--no-cache']).stdout) as { warnings: { file: string }[] };
    expect(json.warnings.filter((warning) => warning.file === 'content/guide/changelog.md')).toHaveLength(24);
  });

  it('ends with its own exit code when the reader of its output went away (docs build | true), not exit 70', () => {
    const site = copyFixture('basic');
    const docs = `${JSON.stringify(process.execPath)} ${JSON.stringify(join(REPO, 'bin', 'docs.mjs'))}`;
    for (const [what, command] of [
      ['stdout', `${docs} build --root ${JSON.stringify(site)} | true; echo "exit \${PIPESTATUS[0]}" >&2`],
      ['stdout and stderr', `${docs} build --root ${JSON.stringify(site)} --json 2>&1 | true; echo "exit \${PIPESTATUS[0]}" >&2`],
    ] as const) {
      const run = spawnSync('bash', ['-c', command], { encoding: 'utf8' });
      expect(run.stderr, what).toContain('exit 0');
      expect(run.stderr, what).not.toMatch(/EPIPE|internal error|\n\s+at /);
      expect(existsSync(join(site, 'dist', 'index.html'))).toBe(true);
    }
  });

  it('names a missing config key and exits 2', () => {
    writeFileSync(join(site, 'site.config.ts'), "import { fixtureConfig } from '../_shared/config';\nconst config = fixtureConfig();\ndelete (config as { tagline?: string }).tagline;\nexport default config;\n");
    const run = runDocs(['build', '--root', site]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('error site.config.ts: `tagline` is missing (expected a non-empty string)');
    expect(snapshotTree(dist)).toEqual(before);
  });

  it('names a config key of the wrong type with its path', () => {
    writeFileSync(join(site, 'site.config.ts'), "import { fixtureConfig } from '../_shared/config';\nexport default fixtureConfig({ navbar: [{ label: 'Home', to: 42 as unknown as string }] });\n");
    const run = runDocs(['build', '--root', site]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('error site.config.ts: `navbar[0].to` must be a non-empty string, got number 42');
    expect(snapshotTree(dist)).toEqual(before);
  });

  it('warns, without failing, on a missing anchor, a .md link to a missing file and an unknown fence language', () => {
    appendFileSync(join(site, 'content/guide/zebra.md'), '\n[gone](./faq.md#nope) [lost](./lost.md)\n\n```klingon\nQapla\n```\n');
    const run = runDocs(['build', '--root', site]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('warning content/guide/zebra.md:7:1: link → ./faq.md#nope: /guide/faq has no heading with the id "nope"');
    expect(run.stderr).toContain('warning content/guide/zebra.md:7:23: link to "./lost.md": no markdown file content/guide/lost.md');
    expect(run.stderr).toContain('warning content/guide/zebra.md:9:1: unknown code fence language "klingon", shown as plain text');
    expect(run.stdout).toMatch(/3 warnings/);
  });
});
