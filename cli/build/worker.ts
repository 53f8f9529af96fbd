/**
 * Worker-thread entry: starts the highlighter at once, then builds the pages the pool sends, one
 * PageBuilder (one highlighter) per thread. A thread kept between builds (`docs serve`'s render
 * thread) makes a new highlighter when a build's settings name another theme or other languages.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startHighlighter, type HighlightSettings } from './markdown/highlighter';
import { PageBuilder, type PageJob, type PageJobContext, type PageResult } from './page-job';
import { openStore, type BuildStore } from './store';
import { indexOnThread, readIndexState, type IndexDone, type IndexRequest, type ReadState, type StatePlace } from './search/index-thread';

/** What a worker starts with. */
export interface WorkerData {
  /** The highlighter's settings; absent when the thread starts before the config is read: they come in a `highlighting` message. */
  highlighting?: HighlightSettings;
  /** Where the previous search index's state is, for a thread that may be asked to make a rebuild's index (search/index-thread.ts). */
  indexState?: StatePlace;
}

/**
 * A message from the pool: the build's context (once a build), a batch of pages, or the end of the
 * build (`close`: the thread commits its cache writes and lets the store go; the pool then stops it,
 * or keeps it for the next build).
 */
export type WorkerRequest = { highlighting: HighlightSettings } | { context: PageJobContext } | { patch: ContextPatch } | { id: number; jobs: PageJob[] } | { index: IndexRequest } | { close: true };

/** A context as what changed since the last one the thread was given (pool.ts `contextPatch`): fields compared by identity, the markdown settings' too. */
export type ContextPatch = Partial<Omit<PageJobContext, 'markdown'>> & { markdown?: Partial<PageJobContext['markdown']> };

/** The answer to a batch, to an index (search/index-thread.ts), or to `close` once the thread's cache writes are committed. */
export type WorkerResponse = { id: number; results: PageResult[] } | { id: number; failure: string } | { indexed: IndexDone } | { indexFailure: string } | { closed: true } | { ready: true };

let { highlighting } = workerData as WorkerData;
const { indexState } = workerData as WorkerData;
/**
 * The previous index's state, read once the thread has loaded, while it waits for its first pages; taken
 * by the index. A state that cannot be read leaves the index to read it again, and fail there, not the thread.
 */
let stateRead: Promise<ReadState | undefined> | undefined =
  indexState &&
  new Promise((resolve) =>
    setImmediate(() => {
      try {
        resolve(readIndexState(indexState));
      } catch {
        resolve(undefined);
      }
    }),
  );
// Started before any page arrives: the main thread is still reading the content meanwhile. A thread
// started before the config was read starts it when the settings come.
let highlighter = highlighting ? startHighlighter(highlighting) : undefined;
let builder: PageBuilder | undefined;
let store: BuildStore | undefined;

/** The last context the thread was given, which a patch changes. */
let context: PageJobContext | undefined;

/** The markdown keys of the pages rendered since the last whole context, by route: an index reads their blocks by them. */
const renderedKeys = new Map<string, string | undefined>();
/** The batch of pages under way, which an index waits for. */
let rendering: Promise<unknown> = Promise.resolve();
/** The index under way, if any: it reads the store, which a `close` lets go only after it (`lingering`). */
let indexing: Promise<void> | undefined;
/** A store the pool let go while an index was still reading it: closed after the index, or taken again by the next context. */
let lingering: BuildStore | undefined;
/** The state of the last index this thread made, being written (search/state.ts): a close waits for it, or the next build would find none. */
let stateWriting: Promise<void> = Promise.resolve();

parentPort?.on('message', async (request: WorkerRequest) => {
  if ('highlighting' in request) {
    if (!highlighting) {
      highlighting = request.highlighting;
      highlighter = startHighlighter(highlighting);
    }
    return;
  }
  // A new build's context, not the patch of the same build's (its pages rendered so far keep their keys).
  if ('context' in request) renderedKeys.clear();
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
    store ??= cache ? (lingering ?? openStore(cache.dir)) : undefined;
    if (store === lingering) lingering = undefined;
    builder = new PageBuilder(request.context, highlighter, store);
    return;
  }
  if ('index' in request) {
    const held = store;
    const { index } = request;
    const after = rendering;
    indexing = (async () => {
      await after;
      try {
        if (!held) throw new Error('the render thread has no build store');
        const read = await stateRead;
        stateRead = undefined;
        const { done, kept } = await indexOnThread(index, held, renderedKeys, read);
        stateWriting = kept;
        parentPort?.postMessage({ indexed: done } satisfies WorkerResponse);
      } catch (error) {
        parentPort?.postMessage({ indexFailure: failureOf(error) } satisfies WorkerResponse);
      }
    })();
    const current = indexing;
    void current.then(() => {
      if (indexing === current) indexing = undefined;
    });
    return;
  }
  if ('close' in request) {
    const held = store;
    const reading = indexing;
    store = undefined;
    if (held && reading) {
      // The writes so far are committed now, as a close promises; the store goes once the index is made.
      lingering = held;
      await held.flush().catch(() => undefined);
      void reading.then(async () => {
        if (lingering !== held) return;
        lingering = undefined;
        await held.close().catch(() => undefined);
      });
    } else await held?.close().catch(() => undefined);
    await stateWriting;
    parentPort?.postMessage({ closed: true } satisfies WorkerResponse);
    return;
  }
  const { id, jobs } = request;
  const batch = (async () => {
    try {
      const results: PageResult[] = [];
      for (const job of jobs) {
        const result = await builder!.build(job);
        renderedKeys.set(result.route, result.markdownKey);
        results.push(result);
      }
      parentPort?.postMessage({ id, results } satisfies WorkerResponse);
    } catch (error) {
      parentPort?.postMessage({ id, failure: failureOf(error) } satisfies WorkerResponse);
    }
  })();
  rendering = batch;
  await batch;
});

/** What a failure says, its stack when it has one. */
function failureOf(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

// Loaded (its native modules among them): from now on the pool may stop this thread. Stopped while it
// loads LMDB's native module, a thread ends the whole process with a fatal error.
parentPort?.postMessage({ ready: true } satisfies WorkerResponse);
