import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { collectGarbage } from '../../../../cli/build/main-heap';
import { BATCH, contextPatch, runPageJobs, startPool, stringSharer, type RenderPool } from '../../../../cli/build/pool';
import { REPO } from '../../../support/site';
import type { PageJob, PageJobContext, PageResult } from '../../../../cli/build/page-job';
import { openStore, type PageOutput } from '../../../../cli/build/store';
import { keysDigest } from '../../../../cli/build/search/index-thread';
import { makeBuildIndex } from '../../../../cli/build/search/source';

describe('contextPatch: what a kept render thread is sent of a new context', () => {
  const base = (): PageJobContext =>
    ({
      site: { title: 'Quad' },
      markdown: { codeTheme: 'github-dark', displayPrefix: 'content/', routeOfFile: { 'guide/install.md': '/guide/install' } },
      template: '<html></html>',
      assets: {},
      contentDir: '/site/content',
      outDir: '/site/node_modules/.cache/docs/.docs-serve-1',
      cache: { dir: '/site/node_modules/.cache/docs', salt: 's' },
      manifestUrl: '/manifest.json',
      editUrl: '',
      sidebars: { guide: [] },
    }) as unknown as PageJobContext;

  it('sends only the fields that are other objects or values, the markdown settings field by field', () => {
    const last = base();
    // A save: another scratch folder, the same sidebars and route map, no cache.
    const next = { ...last, markdown: { ...last.markdown }, outDir: '/site/node_modules/.cache/docs/.docs-serve-2', cache: undefined };
    const patch = contextPatch(last, next);
    expect(patch).toEqual({ outDir: next.outDir, cache: undefined, markdown: {} });
    expect('cache' in patch).toBe(true);
    expect('sidebars' in patch).toBe(false);
    // A new route map and new sidebars are sent whole; the thread merges the patch into what it has.
    const moved = { ...next, sidebars: { guide: [] }, markdown: { ...next.markdown, routeOfFile: { 'guide/setup.md': '/guide/setup' } } };
    const second = contextPatch(next, moved);
    expect(second).toEqual({ sidebars: moved.sidebars, markdown: { routeOfFile: moved.markdown.routeOfFile } });
    const { markdown, ...rest } = second;
    expect({ ...next, ...rest, markdown: { ...next.markdown, ...markdown } }).toEqual(moved);
  });
});

describe('collectGarbage: a large build collects its main thread\'s garbage between stages', () => {
  it('frees what nothing holds any more at once, without giving the process a global gc', () => {
    // Some 40 MB of objects that live long enough to reach V8's old generation, then are let go.
    let pages: { route: string; title: string }[] | undefined = Array.from({ length: 400_000 }, (_, i) => ({ route: `/archive/page-${i}`, title: `Page ${i}` }));
    const holding = process.memoryUsage().heapUsed;
    expect(pages.length).toBe(400_000);
    pages = undefined;
    collectGarbage();
    expect(process.memoryUsage().heapUsed).toBeLessThan(holding - 20 * 2 ** 20);
    expect('gc' in globalThis).toBe(false);
  });
});

describe('stringSharer: the results a render thread sends hold the strings the main thread has', () => {
  const pages = 20_000;
  const jobs = Array.from({ length: pages }, (_, i) => ({ route: `/archive-${i % 40}/backend/api/reference/events/page-${i}`, rel: `archive-${i % 40}/backend/page-${i}.md` }) as PageJob);
  // As a thread sends them: every string a copy (structured clone), as postMessage makes it.
  const sent = (): PageResult[] =>
    structuredClone(
      jobs.map((job, i): PageResult => ({
        route: job.route,
        dataUrl: `/assets/pages/page-${i}.js`,
        mermaid: false,
        links: [0, 1, 2].map((n) => ({ file: `content/${job.rel}`, route: jobs[(i + n + 1) % pages]!.route, hash: n === 0 ? 'parameters' : undefined, written: `./page-${i + n + 1}.md` })),
        ids: ['overview', 'parameters', 'responses', 'request-body', `only-on-page-${i}`],
        warnings: [],
        errors: [],
        cached: false,
        files: [`${job.route.slice(1)}/index.html`],
        images: [],
      })),
    );
  const heldBy = (results: PageResult[]): number => {
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    results.length = 0;
    collectGarbage();
    return before - process.memoryUsage().heapUsed;
  };

  it('changes no value of any result', () => {
    const share = stringSharer(jobs);
    const results = sent();
    const expected = structuredClone(results);
    results.forEach((result) => share(result));
    expect(results).toEqual(expected);
  });

  it('holds the results in a fifth less memory than the copies as they came (here some 40% less)', () => {
    const copies = heldBy(sent());
    const share = stringSharer(jobs);
    const results = sent();
    results.forEach((result) => share(result));
    expect(heldBy(results)).toBeLessThan(copies * 0.8);
  });
});

describe('runPageJobs: where the pages of a build render', () => {
  it('renders even one page on the pool a cold build started, not on this thread (which would load the pipeline and the highlighter again)', async () => {
    const given: PageJob[][] = [];
    const pool: RenderPool = {
      run: async (_context, jobs) => {
        given.push(jobs);
        return jobs.map((job) => ({ route: job.route }) as PageResult);
      },
      index: () => Promise.reject(new Error('not asked')),
      close: async () => undefined,
      finish: async () => undefined,
      commit: async () => undefined,
      stop: async () => undefined,
      stopped: false,
      threads: 1,
      configure: () => undefined,
    };
    const jobs = [{ route: '/guide/install', rel: 'guide/install.md' }] as PageJob[];
    // A context this thread could not render from: only the pool may have been asked.
    const results = await runPageJobs({ context: {} as PageJobContext, jobs, pool, workerUrl: new URL('file:///nowhere/worker.mjs') });
    expect(given).toEqual([jobs]);
    expect(results.map((result) => result.route)).toEqual(['/guide/install']);
  });
});

describe('startPool: a small site starts one render thread', () => {
  // The compiled worker (the tests' global setup compiles the CLI).
  const workerUrl = pathToFileURL(join(REPO, 'node_modules/.cache/docs/cli/worker/worker.mjs'));
  const highlighting = { codeTheme: 'github-dark', highlightLanguages: [] };

  it('starts one thread for a site of up to a batch of files, every thread for a larger site or one of unknown size', async () => {
    const pools = [startPool({ workerUrl, threads: 2, files: 1, highlighting }), startPool({ workerUrl, threads: 2, files: BATCH, highlighting }), startPool({ workerUrl, threads: 2, files: BATCH + 1, highlighting }), startPool({ workerUrl, threads: 2, highlighting })];
    try {
      expect(pools.map((pool) => pool.threads)).toEqual([1, 1, 2, 2]);
    } finally {
      await Promise.all(pools.map((pool) => pool.stop()));
    }
  });
});

describe('RenderPool.finish: the build goes on once the threads committed, while they end', () => {
  const workerUrl = pathToFileURL(join(REPO, 'node_modules/.cache/docs/cli/worker/worker.mjs'));
  const highlighting = { codeTheme: 'github-dark', highlightLanguages: [] };

  it('resolves once every thread committed its writes, before the threads have ended; close resolves once they have', async () => {
    const pool = startPool({ workerUrl, threads: 2, highlighting });
    let ended = false;
    const closing = pool.close().then(() => (ended = true));
    await pool.finish();
    expect(pool.stopped).toBe(true);
    expect(ended).toBe(false);
    await closing;
    expect(ended).toBe(true);
    // Asked again, either waits for the same close.
    await expect(pool.finish()).resolves.toBeUndefined();
  });
});

describe('startPool before the config is read (a cold build)', () => {
  const workerUrl = pathToFileURL(join(REPO, 'node_modules/.cache/docs/cli/worker/worker.mjs'));
  const highlighting = { codeTheme: 'github-light', highlightLanguages: ['ruby'] };

  it('starts one thread without settings, and the rest once `configure` says the site is larger than a batch', async () => {
    const small = startPool({ workerUrl, threads: 2, files: 0 });
    const large = startPool({ workerUrl, threads: 2, files: 0 });
    try {
      expect([small.threads, large.threads]).toEqual([1, 1]);
      small.configure(highlighting, BATCH);
      large.configure(highlighting, BATCH + 1);
      expect([small.threads, large.threads]).toEqual([1, 2]);
      // Given once: a second call changes nothing.
      small.configure(highlighting, BATCH + 1);
      expect(small.threads).toBe(1);
    } finally {
      await Promise.all([small.stop(), large.stop()]);
    }
  });
});

describe('RenderPool.index: a rebuild\'s search index made on a render thread (search/index-thread.ts)', () => {
  const workerUrl = pathToFileURL(join(REPO, 'node_modules/.cache/docs/cli/worker/worker.mjs'));
  const highlighting = { codeTheme: 'github-dark', highlightLanguages: [] };

  it('makes the index of pages whose blocks the store holds, and answers a close meanwhile at once, letting the store go only after', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'docs-index-thread-'));
    const out = mkdtempSync(join(tmpdir(), 'docs-index-out-'));
    const staging = mkdtempSync(join(tmpdir(), 'docs-index-staging-'));
    // The previous build's result of each page names its markdown key; its blocks are in the store under
    // it. Pages enough for the index to take a few slices of the thread's time: the close comes between two.
    const store = openStore(cacheDir)!;
    const pages = Array.from({ length: 4000 }, (_, i) => ({ route: `/weevils/${i}`, title: `Weevil ${i}`, section: 'Wiki' }));
    for (const [i, { route }] of pages.entries()) {
      void store.search.put(`markdown-key-${i}`, [{ text: `The zyzzyva number ${i} is a weevil of the Caribbean, one of ${i * 7} kinds.` }]);
      void store.pages.put(route, { key: 'output-key', result: { markdownKey: `markdown-key-${i}` } } as PageOutput);
    }
    await store.flush();
    // The previous build's index kept its state, where the thread finds each page's key.
    const stateFile = join(cacheDir, 'search-state.bin');
    const results = pages.map(({ route }, i) => ({ route, markdownKey: `markdown-key-${i}` }));
    await makeBuildIndex({ pages, results, store, stateFile, write: () => undefined, known: { salt: 'version', state: undefined } });
    await store.close();
    const context = { site: { title: 'Quad' }, markdown: { codeTheme: 'github-dark', displayPrefix: 'content/', routeOfFile: {} }, template: '<html></html>', assets: {}, contentDir: '/site/content', outDir: staging, cache: { dir: cacheDir, salt: 's' }, manifestUrl: '/manifest.json', editUrl: '', sidebars: {} } as unknown as PageJobContext;
    const pool = startPool({ workerUrl, threads: 1, highlighting });
    try {
      // A run gives the thread the build's context, and with it the store.
      await pool.run(context, []);
      const made = pool.index({ pages, previous: { search: { files: [], entry: '' } }, stateFile, salt: 'version', outDir: out, staging });
      // The pool's close of the thread's store (after early pages) comes while the index reads it.
      await pool.commit();
      const done = await made;
      expect(done.keys).toBe(keysDigest(results));
      expect([...done.written].sort()).toEqual([...done.search.files].sort());
      const shard = done.search.files.find((file) => /\/t-z[^/]*\.json$/.test(file));
      expect(readFileSync(join(staging, shard!), 'utf8')).toContain('"zyzzyva"');
      // One block a page, each with room for a second (state.ts `slotsOf`).
      expect(JSON.parse(done.search.entry)).toMatchObject({ documents: 2 * pages.length, sections: ['Wiki'] });
      // Without a state (an index too large to keep one) it leaves the index to the main thread.
      await pool.run(context, []);
      await expect(pool.index({ pages, previous: { search: { files: [], entry: '' } }, stateFile: join(cacheDir, 'none.bin'), salt: 'version', outDir: out, staging })).rejects.toThrow('the previous index kept no state');
    } finally {
      await pool.close();
    }
  });
});
