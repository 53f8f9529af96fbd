/**
 * Worker-thread entry: starts the highlighter at once, then builds the pages the pool sends, one
 * PageBuilder (one highlighter) per thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createHighlighter } from 'shiki';
import type { MarkdownOptions } from './markdown/index';
import { PageBuilder, type PageJob, type PageJobContext, type PageResult } from './page-job';

/** What a worker starts with. */
export interface WorkerData {
  highlighting: Pick<MarkdownOptions, 'codeTheme' | 'highlightLanguages'>;
}

/** A message from the pool: the build's context (once), or a batch of pages. */
export type WorkerRequest = { context: PageJobContext } | { id: number; jobs: PageJob[] };

/** The answer to a batch. */
export type WorkerResponse = { id: number; results: PageResult[] } | { id: number; failure: string };

const { highlighting } = workerData as WorkerData;
// Started before any page arrives: the main thread is still reading the content meanwhile.
const highlighter = createHighlighter({ themes: [highlighting.codeTheme], langs: highlighting.highlightLanguages });
let builder: PageBuilder | undefined;

parentPort?.on('message', async (request: WorkerRequest) => {
  if ('context' in request) {
    builder = new PageBuilder(request.context, highlighter);
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
