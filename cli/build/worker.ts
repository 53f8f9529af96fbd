/**
 * Worker-thread entry of the render threads (pool.ts). A thread a rebuild starts early may first be
 * asked to take the output's stamps (`WorkerData.stamp`): it does so before it loads the markdown
 * pipeline (render-thread.ts), so that the stamps, some 37,500 `stat` calls at 10,000 pages, come
 * while the main thread reads the content, on a core that would otherwise wait for the modules.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { HighlightSettings } from './markdown/highlighter';
import type { PageJob, PageJobContext, PageResult } from './page-job';
import { stampOutputs, type OutputStamps } from './unchanged';

/** What a worker starts with. */
export interface WorkerData {
  /** The highlighter's settings; absent when the thread starts before the config is read: they come in a `highlighting` message. */
  highlighting?: HighlightSettings;
  /** Output paths to stamp (unchanged.ts `stampOutputs`) before anything else: the answer is a `stamps` message. */
  stamp?: { outDir: string; paths: string[] };
}

/**
 * A message from the pool: the build's context (once a build), a batch of pages, or the end of the
 * build (`close`: the thread commits its cache writes and lets the store go; the pool then stops it,
 * or keeps it for the next build).
 */
export type WorkerRequest = { highlighting: HighlightSettings } | { context: PageJobContext } | { patch: ContextPatch } | { id: number; jobs: PageJob[] } | { close: true };

/** A context as what changed since the last one the thread was given (pool.ts `contextPatch`): fields compared by identity, the markdown settings' too. */
export type ContextPatch = Partial<Omit<PageJobContext, 'markdown'>> & { markdown?: Partial<PageJobContext['markdown']> };

/** The answer to a batch, or to `close` once the thread's cache writes are committed. */
export type WorkerResponse = { id: number; results: PageResult[] } | { id: number; failure: string } | { closed: true } | { ready: true } | { stamps: OutputStamps };

const { stamp } = workerData as WorkerData;
if (stamp) parentPort?.postMessage({ stamps: stampOutputs(stamp.outDir, stamp.paths) } satisfies WorkerResponse);
await import('./render-thread');
