/**
 * Worker-thread entry: starts the highlighter at once, then builds the pages the pool sends, one
 * PageBuilder (one highlighter) per thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createHighlighter } from 'shiki';
import type { MarkdownOptions } from './markdown/index';
import { PageBuilder, type PageJob, type PageJobContext, type PageResult } from './page-job';
import { openStore, type BuildStore } from './store';

/** What a worker starts with. */
export interface WorkerData {
  highlighting: Pick<MarkdownOptions, 'codeTheme' | 'highlightLanguages'>;
}

/** A message from the pool: the build's context (once), a batch of pages, or the end of the build. */
export type WorkerRequest = { context: PageJobContext } | { id: number; jobs: PageJob[] } | { close: true };

/** The answer to a batch, or to `close` once the thread's cache writes are committed. */
export type WorkerResponse = { id: number; results: PageResult[] } | { id: number; failure: string } | { closed: true };

const { highlighting } = workerData as WorkerData;
// Started before any page arrives: the main thread is still reading the content meanwhile.
const highlighter = createHighlighter({ themes: [highlighting.codeTheme], langs: highlighting.highlightLanguages });
let builder: PageBuilder | undefined;
let store: BuildStore | undefined;

parentPort?.on('message', async (request: WorkerRequest) => {
  if ('context' in request) {
    const { cache } = request.context;
    store ??= cache ? openStore(cache.dir) : undefined;
    builder = new PageBuilder(request.context, highlighter, store);
    return;
  }
  if ('close' in request) {
    await store?.close().catch(() => undefined);
    store = undefined;
    parentPort?.postMessage({ closed: true } satisfies WorkerResponse);
    return;
  }
  try {
    const results: PageResult[] = [];
    for (const job of request.jobs) results.push(await builder!.build(job));
    parentPort?.postMessage({ id: request.id, results } satisfies WorkerResponse);
  } catch (error) {
    const failure = error instanceof Error ? (error.stack ?? error.message) : String(error);
    parentPort?.postMessage({ id: request.id, failure } satisfies WorkerResponse);
  }
});
