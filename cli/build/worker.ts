/** Worker-thread entry: builds the pages the pool sends, one PageBuilder (one highlighter) per thread. */
import { parentPort, workerData } from 'node:worker_threads';
import { PageBuilder, type PageJob, type PageJobContext, type PageResult } from './page-job';

/** A message from the pool: a batch of pages. */
export interface WorkerRequest {
  id: number;
  jobs: PageJob[];
}

/** The answer to a batch. */
export type WorkerResponse = { id: number; results: PageResult[] } | { id: number; failure: string };

const builder = new PageBuilder(workerData as PageJobContext);

parentPort?.on('message', async (request: WorkerRequest) => {
  try {
    const results: PageResult[] = [];
    for (const job of request.jobs) results.push(await builder.build(job));
    parentPort?.postMessage({ id: request.id, results } satisfies WorkerResponse);
  } catch (error) {
    const failure = error instanceof Error ? (error.stack ?? error.message) : String(error);
    parentPort?.postMessage({ id: request.id, failure } satisfies WorkerResponse);
  }
});
