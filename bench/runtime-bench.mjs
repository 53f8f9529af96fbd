#!/usr/bin/env node
// `npm run bench` (second half): what the browser downloads. Builds the portal, then prints
// - first-load JavaScript of a doc page: the entry and every chunk it imports statically, gzip;
// - the bytes one client-side navigation fetches, measured in Chromium (gzip of each file fetched);
// - the spread of page data chunks and the one-time costs (manifest, mermaid island).
// Budgets (issue 3): first load ≤ 80 KB gzip with React, one navigation ≤ 15 KB gzip.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { serveDist } from './serve-dist.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'bench', '.portal-dist');
execFileSync(process.execPath, [join(root, 'bin/docs.mjs'), 'build', '--out', dist], { cwd: root, stdio: 'ignore' });

const DOC = '/backend/onboarding/git';
const TARGET = '/24urenloop/why-astraea';
const gzip = (url) => gzipSync(readFileSync(join(dist, url.split('?')[0]))).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

/** The entry and the closure of its static imports. */
function firstLoadScripts(html) {
  return staticClosure([...html.matchAll(/<script type="module" src="([^"]+)"|<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1] ?? m[2]));
}

/** The given scripts and every script they import statically, transitively. */
function staticClosure(start, seen = new Set()) {
  const visit = (url) => {
    if (seen.has(url)) return;
    seen.add(url);
    const code = readFileSync(join(dist, url), 'utf8');
    // Static imports only (`import"./x.js"`, `from"./x.js"`); `import("…")` is lazy.
    for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*"(\.{1,2}\/[^"]+\.js)"/g)) visit(posix.join(posix.dirname(url), m[1]));
  };
  start.forEach(visit);
  return [...seen];
}
const sum = (urls) => urls.reduce((total, url) => total + gzip(url), 0);

const html = readFileSync(join(dist, DOC.slice(1), 'index.html'), 'utf8');
const scripts = firstLoadScripts(html);
const firstLoad = sum(scripts);
const headScript = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
console.log(`\nruntime: what a reader downloads (portal, ${DOC})`);
console.log(`first-load JavaScript  ${kb(firstLoad)} (${firstLoad} B) gzip in ${scripts.length} file(s) (${scripts.join(', ')}) + ${headScript.length} B inline head script — budget 80 KB`);
const css = /<link rel="stylesheet" href="([^"]+)"/.exec(html)?.[1];
if (css) console.log(`stylesheet             ${kb(gzip(css))} gzip`);
console.log(`manifest (once, after hydration)  ${kb(gzip('/manifest.json'))} gzip`);
const chunks = readdirSync(join(dist, 'assets/pages')).map((name) => gzip(`/assets/pages/${name}`)).sort((a, b) => a - b);
const at = (q) => chunks[Math.min(chunks.length - 1, Math.floor(q * chunks.length))];
console.log(`page data chunks       median ${kb(at(0.5))}, p95 ${kb(at(0.95))}, max ${kb(chunks[chunks.length - 1])} gzip (${chunks.length} pages)`);
const mermaid = readdirSync(join(dist, 'assets/chunks')).find((name) => name.startsWith('mermaid.'));
if (mermaid) {
  // What the first diagram page adds (beyond what is loaded already), before mermaid's per-diagram-type chunks.
  const island = staticClosure([`/assets/chunks/${mermaid}`]).filter((url) => !scripts.includes(url));
  console.log(`mermaid island         ${kb(sum(island))} gzip in ${island.length} files (+ one small chunk per diagram type), only on pages with a diagram`);
}

const tabs = readdirSync(join(dist, 'assets/chunks')).find((name) => name.startsWith('tabs.'));
if (tabs) console.log(`tabs island            ${kb(sum(staticClosure([`/assets/chunks/${tabs}`]).filter((url) => !scripts.includes(url))))} gzip, once, after the first page with code-sample tabs renders`);
const login = readdirSync(join(dist, 'assets/chunks')).find((name) => name.startsWith('LoginScreen.'));
if (login) {
  const chunk = staticClosure([`/assets/chunks/${login}`]).filter((url) => !scripts.includes(url));
  console.log(`login screen           ${kb(sum(chunk))} gzip, only for signed-out readers (screen, login flow, HTTP client)`);
}

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.log('one navigation: skipped, Chromium is not installed (apt-get install -y chromium)');
  process.exit(0);
}
// The built portal, served as it is by `docs serve --dist` (the project's own static host).
const { origin, server } = await serveDist(root, dist);
const { chromium: playwright } = await import('playwright-core');
const browser = await playwright.launch({ executablePath: chromium, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
const page = await browser.newPage();
await page.goto(origin + DOC, { waitUntil: 'networkidle' });
// Sign in as a member (the gate's storage key and roles come from the page's own data), then reload.
await page.evaluate(() => {
  const { auth } = JSON.parse(document.getElementById('__DOCS_DATA__').textContent).site;
  const state = { uid: 'bench@quad.example', client: 'bench', accessToken: 'bench', roles: [auth.roles[0]] };
  localStorage.setItem(auth.storageKey, JSON.stringify({ state, version: 0 }));
});
await page.reload({ waitUntil: 'networkidle' });
await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
await page.waitForLoadState('networkidle');
/**
 * Clicks a link nothing has prefetched (another section, never in view), so the navigation pays for
 * everything. Requests are counted from the click until the new page's heading is on screen; the
 * viewport prefetches the new page starts afterwards are not part of this navigation.
 */
async function measureNavigation(target, heading) {
  const timing = await page.evaluate(async ([to, title]) => {
    const started = performance.now();
    const link = Object.assign(document.createElement('a'), { href: to, textContent: 'bench' });
    document.querySelector('#main .markdown').append(link);
    link.click();
    const shown = await new Promise((resolve) => {
      const check = () => (location.pathname === to && document.querySelector('#main h1')?.textContent === title ? resolve(performance.now()) : requestAnimationFrame(check));
      check();
    });
    return { started, shown };
  }, [target, heading]);
  const fetched = await page.evaluate(({ started, shown }) => performance.getEntriesByType('resource').filter((entry) => entry.startTime >= started && entry.startTime <= shown).map((entry) => new URL(entry.name).pathname), timing);
  // Chromium fetches the icon lazily, once per tab: not a cost of navigating.
  const files = [...new Set(fetched)].filter((path) => path !== '/favicon.svg' && existsSync(join(dist, path)));
  const from = new URL(page.url()).pathname;
  console.log(`one navigation         ${kb(sum(files))} gzip in ${(timing.shown - timing.started).toFixed(0)} ms (→ ${target}: ${files.join(', ')}) — budget 15 KB`);
  await page.waitForLoadState('networkidle');
  return from;
}
await measureNavigation(TARGET, 'Why Astraea?');
await page.goto(origin + DOC, { waitUntil: 'networkidle' });
// An API reference page: its data chunk and the tabs island.
await measureNavigation('/backend/api/cp-authentication/push-data-to-backend', 'Push a batch of content');
await browser.close();
server.kill('SIGINT');

