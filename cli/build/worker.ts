/**
 * Worker-thread entry: starts the highlighter at once, then builds the pages the pool sends, one
 * PageBuilder (one highlighter) per thread. A thread kept between builds (`docs serve`'s render
 * thread) makes a new highlighter when a build's settings name another theme or other languages.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startHighlighter, type HighlightSettings } from './markdown/highlighter';
import { PageBuilder, type PageJob, type PageJobContext, type PageResult } from './page-job';
import { openStore, type BuildStore } from './store';

/** What a worker starts with. */
export interface WorkerData {
  /** The highlighter's settings; absent when the thread starts before the config is read: they come in a `highlighting` message. */
  highlighting?: HighlightSettings;
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
export type WorkerResponse = { id: number; results: PageResult[] } | { id: number; failure: string } | { closed: true } | { ready: true };

let { highlighting } = workerData as WorkerData;
// Started before any page arrives: the main thread is still reading the content meanwhile. A thread
// started before the config was read starts it when the settings come.
let highlighter = highlighting ? startHighlighter(highlighting) : undefined;
let builder: PageBuilder | undefined;
let store: BuildStore | undefined;

/** The last context the thread was given, which a patch changes. */
let context: PageJobContext | undefined;

parentPort?.on('message', async (request: WorkerRequest) => {
  if ('highlighting' in request) {
    if (!highlighting) {
      highlighting = request.highlighting;
      highlighter = startHighlighter(highlighting);
    }
    return;
  }
  if ('patch' in request) {
    // The pool patches only a context it gave this thread.
    if (!context) return;
    const { markdown, ...rest } = request.patch;
    request = { context: { ...context, ...rest, markdown: markdown ? { ...context.markdown, ...markdown } : context.markdown } };
  }
  if ('context' in request) {
    context = request.context;
    const { cache, markdown } = request.context;
    // No settings yet (the pool sends them first), or others: the context's are the ones.
    if (!highlighting || markdown.codeTheme !== highlighting.codeTheme || JSON.stringify(markdown.highlightLanguages) !== JSON.stringify(highlighting.highlightLanguages)) {
      const old = highlighter;
      highlighting = { codeTheme: markdown.codeTheme, highlightLanguages: markdown.highlightLanguages };
      highlighter = startHighlighter(highlighting);
      void old?.then((ready) => ready.dispose(), () => undefined);
    }
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

// Loaded (its native modules among them): from now on the pool may stop this thread. Stopped while it
// loads LMDB's native module, a thread ends the whole process with a fatal error.
parentPort?.postMessage({ ready: true } satisfies WorkerResponse);
