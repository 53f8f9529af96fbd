import { existsSync, readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../runtime/manifest';
import { DEV_ACCOUNTS, DEV_PASSWORD } from '../../cli/serve/dev-login';
import { copyFixture, readRoute, REPO, runDocs, snapshotTree, type CliRun } from '../support/site';

describe('docs build of the basic fixture', () => {
  let site: string;
  let dist: string;
  let run: CliRun;

  beforeAll(() => {
    site = copyFixture('basic');
    dist = join(mkdtempSync(join(tmpdir(), 'docs-out-')), 'public');
    run = runDocs(['build', '--root', site, '--out', dist]);
  });

  it('exits 0 and ends with a one-line summary of pages, warnings and seconds', () => {
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Built 6 pages in \d+\.\d\d s \(0 from cache\), 0 warnings → .*public\n$/);
  });

  it('writes one index.html per route into the --out folder, plus 404.html', () => {
    for (const route of ['/', '/guide', '/guide/install', '/guide/faq', '/guide/zebra', '/guide/advanced/tuning']) {
      expect(existsSync(join(dist, route === '/' ? 'index.html' : `${route.slice(1)}/index.html`)), route).toBe(true);
    }
    const notFound = readFileSync(join(dist, '404.html'), 'utf8');
    expect(notFound).toContain('<title>Page not found | Docs</title>');
    expect(notFound).toContain('class="navbar"');
    expect(existsSync(join(site, 'dist'))).toBe(false);
  });

  it('titles pages "Page | Docs" and sets lang="en-GB" and the meta description', () => {
    const html = readRoute(dist, '/guide/install');
    expect(html).toContain('<html lang="en-GB"');
    expect(html).toContain('<title>Install the backend | Docs</title>');
    expect(html).toContain('<meta name="description" content="How to install the backend locally."/>');
    // A page without a description of its own (and the not-found page) is described by the site's tagline.
    expect(readRoute(dist, '/guide/faq')).toContain('<meta name="description" content="Documentation for Quad"/>');
    expect(readFileSync(join(dist, '404.html'), 'utf8')).toContain('<meta name="description" content="Documentation for Quad"/>');
  });

  it('lists h2 and h3 in the table of contents but not h4', () => {
    const html = readRoute(dist, '/guide/install');
    const toc = /<nav class="toc"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '';
    expect(toc).toContain('href="#requirements"');
    expect(toc).toContain('href="#ruby"');
    expect(toc).not.toContain('a-detail-that-stays-out-of-the-table-of-contents');
    expect(toc).not.toContain('Footnotes');
    expect(html).toContain('<h4 id="a-detail-that-stays-out-of-the-table-of-contents">');
  });

  it('highlights ruby, json and bash with shiki tokens, titles and highlighted lines', () => {
    const html = readRoute(dist, '/guide/install');
    expect(html).toMatch(/data-language="ruby"><div class="code-block-title">config\/initializers\/quad.rb<\/div><pre class="shiki github-dark"/);
    expect(html).toContain('<span style="color:#79B8FF">Rails</span>');
    expect(html).toMatch(/<span class="line highlighted"><span style="color:#E1E4E8"> {2}config\.<\/span>/);
    expect(html).toContain('<span style="color:#79B8FF">"platform"</span>');
    expect(html).toContain('<span style="color:#B392F0">bundle</span>');
    expect(html).toContain('data-copy=""');
  });

  it("starts its highlighters from shiki's onig.wasm file, never from the base64 copy shiki loads by default, and without Node's fetch (~110 and ~140 ms a thread)", () => {
    const hooks = ['no-inlined-wasm.mjs', 'no-response.mjs'].map((name) => `--import=${join(REPO, 'test', 'support', name)}`).join(' ');
    const again = join(mkdtempSync(join(tmpdir(), 'docs-out-')), 'public');
    const hooked = runDocs(['build', '--root', site, '--out', again, '--no-cache'], { env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${hooks}` } });
    expect(hooked.stderr).toBe('');
    expect(hooked.code).toBe(0);
    expect(readRoute(again, '/guide/install')).toBe(readRoute(dist, '/guide/install'));
  });

  it('renders admonitions with default, bracketed and old-style titles', () => {
    const html = readRoute(dist, '/guide/install');
    expect(html).toContain('<aside role="note" class="admonition admonition-note" data-kind="note"><div class="admonition-title">Note</div><p>Keep your secrets out of git.</p></aside>');
    expect(html).toContain('class="admonition admonition-warning" data-kind="warning"><div class="admonition-title">Mind the data</div>');
    expect(html).toContain('<div class="admonition-title">Old-style title</div>');
    expect(html).toMatch(/The time 12(<!-- -->)?:30(<!-- -->)? and the pair a(<!-- -->)?:b/);
  });

  it('renders GFM tables, task lists, strikethrough, autolinks and footnotes', () => {
    const html = readRoute(dist, '/guide/install');
    expect(html).toContain('<th>Tool</th>');
    // Each checkbox named by its task, for a screen reader (probe 6-A L3).
    expect(html).toContain('<input type="checkbox" disabled="" aria-label="Ruby installed" checked=""/>');
    expect(html).toContain('<input type="checkbox" disabled="" aria-label="Database seeded"/>');
    expect(html).toContain('<del>hard</del>');
    expect(html).toContain('<a href="https://quad.example" target="_blank" rel="noopener noreferrer">https://quad.example</a>');
    expect(html).toContain('id="user-content-fn-1"');
  });

  it('rewrites .md links to routes and keeps anchors', () => {
    expect(readRoute(dist, '/guide/install')).toContain('<a href="/guide/advanced/tuning#caching">Caching</a>');
    expect(readRoute(dist, '/')).toContain('<a href="/guide/install">installation guide</a>');
    expect(readRoute(dist, '/guide/faq')).toContain('<a href="/guide">the guide</a>');
    expect(readRoute(dist, '/guide/advanced/tuning')).toContain('<h2 id="caching">');
  });

  it('keeps mermaid fences as diagram placeholders and copies images with hashed names', () => {
    const html = readRoute(dist, '/guide/install');
    // The source in a frame sized by the build for the drawn diagram (two 152 px nodes across).
    expect(html).toMatch(/<div class="mermaid" tabindex="0"><div class="mermaid-frame" data-mermaid="" style="aspect-ratio:\d+\/\d+;max-width:\d+px;min-width:\d+px">flowchart LR\n  A --&gt; B<\/div><\/div>/);
    const src = /<img[^>]*src="(\/assets\/images\/diagram\.[0-9a-f]{8}\.svg)"/.exec(html)?.[1];
    expect(src).toBeDefined();
    expect(readFileSync(join(dist, src!), 'utf8')).toContain('<svg');
  });

  it('renders the sidebar with the current page active, categories expanded and ordered by position then name', () => {
    const html = readRoute(dist, '/guide/advanced/tuning');
    const sidebar = /<aside class="sidebar"[^>]*>[\s\S]*?<\/aside>/.exec(html)?.[0] ?? '';
    const labels = [...sidebar.matchAll(/>([^<>]+)<\/(?:a|span)>/g)].map((m) => m[1]);
    expect(labels).toEqual(['Guide', 'Install the backend', 'FAQ', 'Advanced topics', 'Tuning', 'Zebra']);
    expect(sidebar).toContain('<a class="sidebar-link active" href="/guide/advanced/tuning" aria-current="page">Tuning</a>');
  });

  it('renders navbar, breadcrumbs, edit link, last update, previous/next and footer', () => {
    const html = readRoute(dist, '/guide/advanced/tuning');
    expect(html).toContain('<a class="navbar-link active" href="/guide" aria-current="page">Guide</a>');
    expect(html).toMatch(/<nav class="breadcrumbs"[^>]*><ol><li><span>Advanced topics<\/span><\/li><li aria-current="page">Tuning<\/li>/);
    expect(html).toContain('href="https://git.quad.example/quad/docs/edit/master/content/guide/advanced/tuning.md"');
    expect(html).toMatch(/Last updated on <time[^>]*>\d{1,2} \w+ \d{4}<\/time>/);
    expect(html).toContain('<a class="pagination-link pagination-prev" href="/guide/faq" rel="prev">');
    expect(html).toContain('<a class="pagination-link pagination-next" href="/guide/zebra" rel="next">');
    expect(html).toContain('<p class="footer-tagline"><span class="footer-title">Docs</span> · Documentation for Quad</p>');
    expect(html).toContain('Copyright © 2025 Quad');
  });

  it('carries only its own sidebar, never the site-wide route list', () => {
    const home = readRoute(dist, '/');
    expect(home).not.toContain('/guide/zebra');
  });

  it('writes manifest.json with routes, sidebars, version and locale, and a data chunk per page', () => {
    const manifest = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.locale).toBe('en-GB');
    expect(manifest.version.label).toBe('Next');
    const install = manifest.routes.find((route) => route.path === '/guide/install');
    expect(install).toMatchObject({ id: 'guide/install', sidebar: 'guide', title: 'Install the backend' });
    expect(install!.data).toMatch(/^\/assets\/pages\/guide_install\.[0-9a-f]{8}\.js$/);
    const module = readFileSync(join(dist, install!.data), 'utf8');
    expect(module.startsWith('export default {')).toBe(true);
    const chunk = JSON.parse(module.slice('export default '.length).replace(/;\n$/, '')) as { html: string; title: string };
    expect(chunk.title).toBe('Install the backend');
    expect(chunk.html).toContain('<h2 id="requirements">');
    expect(manifest.sidebars.guide?.map((item) => item.label)).toEqual(['Guide', 'Install the backend', 'FAQ', 'Advanced topics', 'Zebra']);
  });

  it('never contains the development accounts of docs serve', () => {
    for (const [file, bytes] of snapshotTree(dist)) {
      const text = Buffer.from(bytes, 'base64').toString('utf8');
      for (const account of DEV_ACCOUNTS) expect(text.includes(account.email), file).toBe(false);
      expect(text.includes(DEV_PASSWORD), file).toBe(false);
    }
  });

  it('links content-hashed runtime assets', () => {
    const html = readRoute(dist, '/');
    const js = /<script type="module" src="(\/assets\/app\.[A-Z0-9]+\.js)"/.exec(html)?.[1];
    const css = /<link rel="stylesheet" href="(\/assets\/app\.[A-Z0-9]+\.css)"/.exec(html)?.[1];
    expect(js && existsSync(join(dist, js))).toBe(true);
    expect(css && existsSync(join(dist, css))).toBe(true);
  });

  it('loads one script on a page, within the first-load budget of 80 KB gzip with React (issue 3), and the islands only when wanted', () => {
    const html = readRoute(dist, '/guide/install');
    const scripts = [...html.matchAll(/<script type="module" src="([^"]+)"|<link rel="modulepreload" href="([^"]+)"/g)].map((match) => match[1] ?? match[2]!);
    // The page's script imports nothing statically: every other module is an island, fetched with import().
    expect(scripts).toHaveLength(1);
    const code = readFileSync(join(dist, scripts[0]!), 'utf8');
    expect(code).not.toMatch(/(?:\bfrom|\bimport)\s*"\.{1,2}\//);
    const islands = [...code.matchAll(/\bimport\("\.\/chunks\/([A-Za-z]+)\.[A-Z0-9]+\.js"\)/g)].map((match) => match[1]).sort();
    expect(islands).toEqual(['LoginScreen', 'SearchDialog', 'mermaid', 'tabs']);
    // 80 KB as the bench has always reported it (KiB); 82.9 KiB on 2026-11-28 in five files, 78.7 after.
    expect(gzipSync(code).length).toBeLessThanOrEqual(80 * 1024);
  });
});
