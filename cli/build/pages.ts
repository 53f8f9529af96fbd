/**
 * Stage 4, pages: which pages this build renders and which it takes from the previous one. A page's
 * output key hashes every input of its bytes; a page whose key and images are unchanged is linked
 * from the previous output, the rest render on the worker pool with their markdown cache entries.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hash } from '../util/hash';
import { listFiles } from '../util/fs';
import { imageChecker } from './images';
import type { OnProgress } from './progress';
import type { PageJob, PageJobContext, PageResult } from './page-job';
import { runPageJobs, type RenderPool } from './pool';
import { generatorVersion, markdownKeys, readMarkdownCache, reuseFiles, writeMarkdownCache, type MarkdownCache, type OutputState } from './reuse';

/**
 * Each page's output key: a hash of every input of its bytes (the generator, the shared context, the
 * page's own job and sidebar). A sidebar is serialised once, not once per page of it.
 */
export function outputKeys(context: PageJobContext, jobs: PageJob[]): string[] {
  const shared = hash(generatorVersion() + JSON.stringify({ ...context, outDir: '', cacheMarkdown: false }));
  const sidebars = new Map<string, string>();
  return jobs.map((job) => {
    let sidebar = sidebars.get(job.sidebar);
    if (sidebar === undefined) sidebars.set(job.sidebar, (sidebar = JSON.stringify(context.sidebars[job.sidebar] ?? null)));
    return hash(`${shared}\0${JSON.stringify(job)}\0${sidebar}`);
  });
}

/** For each job, the previous build's result when the page's key and the images it shows are unchanged. */
export function previousResults(context: PageJobContext, jobs: PageJob[], keys: string[], previous: OutputState['pages']): (PageResult | undefined)[] {
  const imagesUnchanged = imageChecker(context.contentDir);
  return jobs.map((job, i) => {
    const before = previous[job.route];
    return before && before.key === keys[i] && imagesUnchanged(before.result.images) ? before.result : undefined;
  });
}

/**
 * True when `outDir` holds exactly the files a build would write: `written` byte for byte, `linked`
 * present, and nothing else.
 */
export function outputIs(outDir: string, written: Record<string, string | Buffer>, linked: string[]): boolean {
  for (const [file, bytes] of Object.entries(written)) {
    try {
      if (!readFileSync(join(outDir, file)).equals(typeof bytes === 'string' ? Buffer.from(bytes) : bytes)) return false;
    } catch {
      return false;
    }
  }
  const expected = new Set([...Object.keys(written), ...linked]);
  const present = listFiles(outDir);
  return present.length === expected.size && present.every((file) => expected.has(file));
}

/** What `buildPages` works from. */
export interface PagesInput {
  context: PageJobContext;
  jobs: PageJob[];
  /** Output keys, when the caller has them already (a rebuild); otherwise computed while the workers render. */
  keys?: string[];
  /** `previousResults` of the jobs; empty on a cold build. */
  reusable: (PageResult | undefined)[];
  /** The previous output folder the reusable pages are linked from. */
  outDir: string;
  /** Compiled worker entry; without it pages render on this thread. */
  workerUrl?: URL;
  threads?: number;
  /** Hears how many pages are done. */
  onProgress?: OnProgress;
  pool?: RenderPool;
  cacheDir?: string;
}

/**
 * Links unchanged pages from the previous output and renders the rest on the worker pool, giving each
 * the markdown cache's entry when its markdown is unchanged. Returns the results and each page's
 * output key. Keys the rendering does not need are computed while the workers render.
 */
export async function buildPages({ context, jobs, keys: known, reusable, outDir, workerUrl, threads, pool, cacheDir, onProgress }: PagesInput): Promise<{ results: PageResult[]; keys: string[] }> {
  let keys = known;
  const results: (PageResult | undefined)[] = new Array(jobs.length);
  const pending: number[] = [];
  const createdDirs = new Set<string>();
  jobs.forEach((_, i) => {
    const before = reusable[i];
    if (before && reuseFiles(outDir, context.outDir, before.files, createdDirs)) results[i] = before;
    else pending.push(i);
  });
  let done = jobs.length - pending.length;
  onProgress?.({ stage: 'pages', done, total: jobs.length });
  if (pending.length === 0) return { results: results as PageResult[], keys: keys ?? outputKeys(context, jobs) };

  // Read once, here; each page gets its own entry with its job.
  const cache: MarkdownCache = cacheDir ? readMarkdownCache(cacheDir) : {};
  let markdownKey = Object.keys(cache).length > 0 ? markdownKeys(context.markdown, jobs) : undefined;
  const pendingJobs = pending.map((i) => {
    const cached = markdownKey && cache[markdownKey[i]!];
    return cached ? { ...jobs[i]!, cached } : jobs[i]!;
  });
  const onPages = onProgress && ((count: number): void => onProgress({ stage: 'pages', done: (done += count), total: jobs.length }));
  const rendering = runPageJobs({ context, jobs: pendingJobs, workerUrl, threads, pool, onPages });
  keys ??= outputKeys(context, jobs);
  markdownKey ??= cacheDir ? markdownKeys(context.markdown, jobs) : [];
  const built = await rendering;
  pending.forEach((jobIndex, i) => {
    const { markdown, ...result } = built[i]!;
    if (markdown) cache[markdownKey[jobIndex]!] = markdown;
    results[jobIndex] = result;
  });
  if (cacheDir) {
    // Exactly the current pages' entries: the fresh ones, and the earlier ones still in use.
    const current: MarkdownCache = {};
    for (const key of markdownKey) if (cache[key]) current[key] = cache[key];
    writeMarkdownCache(cacheDir, current);
  }
  return { results: results as PageResult[], keys };
}
