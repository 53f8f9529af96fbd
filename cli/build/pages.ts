/**
 * Stage 4, pages: which pages this build renders and which it keeps from the previous output. A page's
 * output key hashes every input of its bytes; a page whose key and images are unchanged, and whose
 * files are all still in the output, stays as it is; the rest render on the worker pool, each thread
 * taking the page's markdown from the build store's cache when its markdown is unchanged.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { hash } from '../util/hash';
import { imageChecker } from './images';
import type { OnProgress } from './progress';
import type { PageJob, PageJobContext, PageResult } from './page-job';
import { fitOptimizer } from './optimizer';
import { collectGarbage, MANY_PAGES } from './main-heap';
import { BATCH, runPageJobs, type RenderPool } from './pool';
import type { BuildStore, PageOutput } from './store';
import { generatorVersion } from './version';
import { sameAnswers, siteRoutes } from './markdown/route-lookups';

/**
 * Each page's output key: a hash of every input of its bytes (the generator, the shared context, the
 * page's own job and sidebar). A page shows its own sidebar only, so the others are left out of the
 * shared part: a changed title re-renders the pages of its sidebar (and its neighbours, whose
 * previous/next links name it), not the site. A sidebar is serialised and hashed once, and its hash
 * is what each page's key takes: hashing a sidebar of 1,000 pages into each of its pages' keys was
 * most of the keys' time (0.2 of 0.35 s at 10,000 pages).
 */
export function outputKeys(context: PageJobContext, jobs: PageJob[], known?: KnownKeys): string[] {
  const shared = sharedKey(context);
  // The keys of the build that left `known`, for the pages whose jobs are known to be the same.
  const same = known && known.shared === shared && known.keys.length === jobs.length ? known : undefined;
  const sidebars = new Map<string, string>();
  return jobs.map((job, i) => {
    if (same && !same.changed.has(job.rel)) return same.keys[i]!;
    let sidebar = sidebars.get(job.sidebar);
    if (sidebar === undefined) sidebars.set(job.sidebar, (sidebar = hash(JSON.stringify(context.sidebars[job.sidebar] ?? null))));
    // The body by its hash (`bodyHash`, in the job): the main thread may not hold the body at all. A
    // job without one is written as it is (a copy without it was a third of the time at 10,000 pages).
    return hash(`${shared}\0${JSON.stringify(job.body === undefined ? job : { ...job, body: undefined })}\0${sidebar}`);
  });
}

/** What of the pages' output keys (`outputKeys`) a build knows already (cli/build/snapshot.ts). */
export interface KnownKeys {
  /** What every key of them is made with (`sharedKey`): other keys are made again. */
  shared: string;
  /** Every page's key, in the order of the jobs. */
  keys: readonly string[];
  /** The pages (`PageJob.rel`) whose jobs may have changed: their keys are made again. */
  changed: ReadonlySet<string>;
}

/**
 * What every page's output key is made with: the generator, and the context but the sidebars
 * (`outputKeys`) and the route map, which a page's output depends on only through what its links
 * asked of it (`previousResults`).
 */
export function sharedKey(context: PageJobContext): string {
  return hash(generatorVersion() + JSON.stringify({ ...context, markdown: { ...context.markdown, routeOfFile: undefined }, outDir: '', published: undefined, cache: undefined, sidebars: undefined }));
}

/**
 * For each job, the previous build's result when the page's key and the images it shows are unchanged,
 * the site's routes answer its links as they did, and every file it wrote is still in the output
 * (`present`).
 */
export function previousResults(context: PageJobContext, jobs: PageJob[], keys: string[], previous: (route: string) => PageOutput | undefined, present: ReadonlySet<string>, sameRoutes: boolean): (PageResult | undefined)[] {
  const imagesUnchanged = imageChecker(context.contentDir);
  // The same route map answers every question alike: no page's are asked again.
  const site = siteRoutes(context.markdown.routeOfFile);
  const answered = (result: PageResult): boolean => sameRoutes || sameAnswers(result.routeLookups, site);
  return jobs.map((job, i) => {
    const before = previous(job.route);
    return before && before.key === keys[i] && answered(before.result) && before.result.files.every((file) => present.has(file)) && imagesUnchanged(before.result.images) ? before.result : undefined;
  });
}

/** Pages a rebuild renders before it has sorted the others (`renderEarly`). */
export interface EarlyPages {
  /** Their positions among the jobs. */
  positions: number[];
  /** Their results, in the order of `positions`. */
  results: Promise<PageResult[]>;
}

/**
 * Starts rendering, on `thread`, the pages of the files read anew (`rels`: edited or new since the last
 * build), before the build has found which other pages changed (their output keys, the previous results,
 * the output's files: some 0.5 s at 10,000 pages). A page found reusable after all (its file was
 * touched, not changed) keeps its previous result, and `buildPages` takes back what it wrote. Only a few pages
 * (one message's worth): a rebuild that renders many uses the pool, and one thread would be slower.
 */
export function renderEarly({ context, jobs, rels, thread, store }: { context: PageJobContext; jobs: PageJob[]; rels: ReadonlySet<string>; thread: RenderPool; store?: BuildStore }): EarlyPages | undefined {
  const positions = jobs.flatMap((job, i) => (rels.has(job.rel) ? [i] : []));
  if (positions.length === 0 || positions.length > BATCH) return undefined;
  const results = runPageJobs({ context, jobs: positions.map((i) => jobs[i]!), thread, store });
  // A build that fails before it takes them waits for them (the thread writes below the staging folder) but does not read them.
  results.catch(() => undefined);
  return { positions, results };
}

/** What `buildPages` works from. */
export interface PagesInput {
  context: PageJobContext;
  jobs: PageJob[];
  /** Output keys, when the caller has them already (a rebuild); otherwise computed while the workers render. */
  keys?: string[];
  /** `previousResults` of the jobs; empty on a cold build. */
  reusable: (PageResult | undefined)[];
  /** Compiled worker entry; without it pages render on this thread. */
  workerUrl?: URL;
  threads?: number;
  /** Hears how many pages are done. */
  onProgress?: OnProgress;
  pool?: RenderPool;
  /** The render thread the caller keeps between builds (pool.ts `PoolOptions.thread`). */
  thread?: RenderPool;
  store?: BuildStore;
  /**
   * Pages already being rendered (`renderEarly`): not rendered again. One that turns out reusable (its
   * file was touched, not changed) keeps its previous result, and what its render wrote is taken back.
   */
  early?: EarlyPages;
}

/**
 * Keeps the reusable pages and renders the rest into the staging folder (`context.outDir`). Returns
 * every page's result, each page's output key, and the positions of the pages rendered. Keys the
 * rendering does not need are computed while the workers render.
 */
export async function buildPages({ context, jobs, keys: known, reusable, workerUrl, threads, pool, thread, store, onProgress, early }: PagesInput): Promise<{ results: PageResult[]; keys: string[]; rendered: number[]; storeFailed?: string }> {
  const results: (PageResult | undefined)[] = jobs.map((_, i) => reusable[i]);
  const rendered = jobs.flatMap((_, i) => (results[i] ? [] : [i]));
  // The files an early page that is reused wrote below the staging folder: the output holds them already.
  const takeBack = (result: PageResult): void => result.files.forEach((file) => rmSync(join(context.outDir, file), { force: true }));
  let done = jobs.length - rendered.length;
  onProgress?.({ stage: 'pages', done, total: jobs.length });
  if (rendered.length === 0) {
    if (early) (await early.results.catch(() => [])).forEach(takeBack);
    return { results: results as PageResult[], keys: known ?? outputKeys(context, jobs), rendered };
  }
  const onPages = onProgress && ((count: number): void => onProgress({ stage: 'pages', done: (done += count), total: jobs.length }));
  const toRender = rendered.map((i) => jobs[i]!);
  fitOptimizer({ renderChars: toRender.reduce((sum, job) => sum + (job.cost?.size ?? job.body?.length ?? 0), 0) });
  const rendering = renderRest({ jobs, rendered, early, run: (rest) => runPageJobs({ context, jobs: rest, workerUrl, threads, pool, thread, store, onPages }), onPages, takeBack });
  const keys = known ?? outputKeys(context, jobs);
  // Many pages to render: what reading the content left behind goes now, while the threads render.
  if (toRender.length >= MANY_PAGES) collectGarbage();
  let built = await rendering;
  // The pages' cache writes (their search blocks among them) are committed before anything reads them:
  // the workers stop now (they commit as they close; their end is not waited for), and this thread's own
  // writes are waited for.
  await pool?.finish();
  let storeFailed = store ? await store.flush().then(() => undefined, (error: unknown) => (error instanceof Error ? error.message : String(error))) : undefined;
  // A batch of writes can fail and a later one commit: the blocks of every page put in the cache (one
  // without errors) must be there to be read.
  const unstored = (result: PageResult): boolean => result.markdownKey !== undefined && !result.cached && result.errors.length === 0 && !store!.search.doesExist(result.markdownKey);
  if (store && storeFailed === undefined && built.some(unstored)) storeFailed = 'some of its writes did not commit: is the disk full?';
  if (storeFailed !== undefined) {
    // The store did not take this build's writes (a full disk, say): the search blocks of the pages
    // just rendered may be missing from it. They are rendered again without the cache, their text in
    // their results; the output is the same, this build slower.
    built = await runPageJobs({ context: { ...context, cache: undefined }, jobs: toRender, workerUrl, threads });
  }
  rendered.forEach((jobIndex, i) => (results[jobIndex] = built[i]));
  return { results: results as PageResult[], keys, rendered, ...(storeFailed !== undefined ? { storeFailed } : {}) };
}

/**
 * The results of the `rendered` jobs, in that order: the early pages' when they come, the others
 * rendered by `run`. A few others go to the thread the early pages hold, after them; many go to a pool
 * of their own at once (pool.ts `runPageJobs`), not behind the early pages. Either way every render
 * has ended before this returns or throws: the threads write below the staging folder.
 */
async function renderRest({ jobs, rendered, early, run, onPages, takeBack }: { jobs: PageJob[]; rendered: number[]; early?: EarlyPages; run: (jobs: PageJob[]) => Promise<PageResult[]>; onPages?: (count: number) => void; takeBack: (result: PageResult) => void }): Promise<PageResult[]> {
  if (!early) return run(rendered.map((i) => jobs[i]!));
  const isEarly = new Set(early.positions);
  const isRendered = new Set(rendered);
  const rest = rendered.filter((i) => !isEarly.has(i));
  const alongside = rest.length > BATCH ? run(rest.map((i) => jobs[i]!)) : undefined;
  // Handled now, read below: a failure of theirs while the early pages render is no stray rejection.
  alongside?.catch(() => undefined);
  const byPosition = new Map<number, PageResult>();
  try {
    const first = await early.results;
    early.positions.forEach((position, i) => (isRendered.has(position) ? byPosition.set(position, first[i]!) : takeBack(first[i]!)));
    onPages?.(byPosition.size);
  } catch (error) {
    await alongside?.catch(() => undefined);
    throw error;
  }
  const others = alongside ? await alongside : rest.length > 0 ? await run(rest.map((i) => jobs[i]!)) : [];
  others.forEach((result, i) => byPosition.set(rest[i]!, result));
  return rendered.map((i) => byPosition.get(i)!);
}
