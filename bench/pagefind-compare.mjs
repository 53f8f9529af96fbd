#!/usr/bin/env node
// `node bench/pagefind-compare.mjs DIST QUERY…`: Pagefind (`npx pagefind@1.6.0`, fetched from the npm
// registry on first use) over a finished build, for comparison with our own index (search-bench.mjs):
// its indexing time and size, then in Chromium, served by `docs serve --dist`, what its init loads and,
// per query, the time and bytes of `search()` plus the fragments of the first 8 results (what our
// dialog shows). Not part of `npm run bench`; the figures are in the README's Search section.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, rmSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium as playwright } from 'playwright-core';
import { serveDist } from './serve-dist.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [dist, ...queries] = process.argv.slice(2);
const out = join(dist, 'pagefind');
rmSync(out, { recursive: true, force: true });
const t = performance.now();
const r = spawnSync('npx', ['-y', 'pagefind@1.6.0', '--site', dist, '--output-path', out], { encoding: 'utf8' });
const seconds = (performance.now() - t) / 1000;
console.log(r.stdout.split('\n').filter((l) => /Indexed|language|Total|Finished/i.test(l)).join('\n'));
let files = 0, bytes = 0;
const walk = (d) => { for (const f of readdirSync(d)) { const p = join(d, f); const s = statSync(p); if (s.isDirectory()) walk(p); else { files++; bytes += s.size; } } };
walk(out);
console.log(`pagefind index: ${seconds.toFixed(2)} s (npx, wall), ${(bytes / 2 ** 20).toFixed(1)} MiB in ${files} files`);
const browser = await playwright.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
const { origin, server } = await serveDist(root, dist);
const context = await browser.newContext();
const page = await context.newPage();
const transferred = new Map();
page.on('response', async (res) => { if (res.url().includes('/pagefind/')) { const size = (await res.request().sizes().catch(() => ({ responseBodySize: 0 }))).responseBodySize; transferred.set(res.url(), size); } });
await page.route(origin + '/pf-blank.html', (route) => route.fulfill({ body: '<!doctype html><title>pf</title>', contentType: 'text/html' }));
await page.goto(origin + '/pf-blank.html');
await page.evaluate(async () => { window.pf = await import('/pagefind/pagefind.js'); await window.pf.options({}); await window.pf.init(); });
await page.waitForTimeout(500);
console.log(`init: ${[...transferred.values()].reduce((a, b) => a + b, 0) / 1024 | 0} KiB in ${transferred.size} files`);
for (const q of queries) {
  const before = new Set(transferred.keys());
  const ms = await page.evaluate(async (q) => { const t = performance.now(); const s = await window.pf.search(q); const d = await Promise.all(s.results.slice(0, 8).map((r) => r.data())); return [performance.now() - t, s.results.length, d.map((x) => x.url).slice(0, 3)]; }, q);
  await page.waitForTimeout(300);
  const added = [...transferred].filter(([u]) => !before.has(u));
  console.log(`"${q}": ${ms[0].toFixed(1)} ms, ${ms[1]} results (${ms[2].join(' ')}), ${(added.reduce((a, [, b]) => a + b, 0) / 1024).toFixed(1)} KiB in ${added.length} files`);
}
await browser.close(); server.kill();
