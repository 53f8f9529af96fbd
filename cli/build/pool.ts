/** Runs page jobs on a pool of worker threads (one per core), or in-process when no worker URL is given. */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { PageJob, PageJobContext, PageResult } from './page-job';
import type { WorkerRequest, WorkerResponse } from './worker';

/** Options of `runPageJobs`. */
export interface PoolOptions {
  context: PageJobContext;
  jobs: PageJob[];
  /** URL of the compiled worker entry; without it pages render on this thread. */
  workerUrl?: URL;
  /** Number of threads. @default availableParallelism() */
  threads?: number;
}

/**
 * Markdown rendering allocates many short-lived objects; a larger young generation means fewer
 * scavenges (measured: GC was an eighth of a cold build with the default).
 */
const YOUNG_GENERATION_MB = 96;

/** Pages per message: small enough to balance the load, large enough to keep messaging cheap. */
const BATCH = 8;

/** Builds every page and returns the results in job order. */
export async function runPageJobs(options: PoolOptions): Promise<PageResult[]> {
  const { jobs, context } = options;
  const threads = Math.max(1, Math.min(options.threads ?? availableParallelism(), Math.ceil(jobs.length / BATCH)));
  if (!options.workerUrl || jobs.length <= BATCH) {
    // Loaded on demand: the markdown pipeline (shiki, unified, remark) costs ~190 ms to import, which a
    // build that renders on workers, or reuses every page, should not pay on its main thread.
    const { PageBuilder } = await import('./page-job');
    const builder = new PageBuilder(context);
    const results: PageResult[] = [];
    for (const job of jobs) results.push(await builder.build(job));
    return results;
  }
  const workerUrl = options.workerUrl;
  const results: PageResult[] = new Array(jobs.length);
  let next = 0;
  const workers = Array.from({ length: threads }, () => new Worker(workerUrl, { workerData: context, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } }));
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            const send = (): void => {
              if (next >= jobs.length) return resolve();
              const start = next;
              next = Math.min(jobs.length, next + BATCH);
              worker.postMessage({ id: start, jobs: jobs.slice(start, next) } satisfies WorkerRequest);
            };
            worker.on('message', (response: WorkerResponse) => {
              if ('failure' in response) return reject(new Error(response.failure));
              response.results.forEach((result, i) => (results[response.id + i] = result));
              send();
            });
            worker.on('error', reject);
            worker.on('exit', (code) => {
              if (code !== 0) reject(new Error(`a render worker exited with code ${code}`));
            });
            send();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return results;
}
