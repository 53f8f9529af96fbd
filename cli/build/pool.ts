/**
 * Runs page jobs on a pool of worker threads (one per core), or in-process when no worker URL is given.
 * A pool can be started before the jobs are known: its workers load the markdown pipeline and start
 * the highlighter while the main thread still reads the content.
 */
import { availableParallelism } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { HighlightSettings } from './markdown/highlighter';
import type { PageJob, PageJobContext, PageResult } from './page-job';
import { pageCost, planLanes, takeBatch, type Lanes } from './lanes';
import type { BuildStore } from './store';
import type { IndexDone, IndexRequest, StatePlace } from './search/index-thread';
import type { ContextPatch, WorkerData, WorkerRequest, WorkerResponse } from './worker';

/**
 * Markdown rendering allocates many short-lived objects; a larger young generation means fewer
 * scavenges (measured: GC was an eighth of a cold build with the default).
 */
const YOUNG_GENERATION_MB = 96;

/**
 * A worker's old generation is capped below 2 GiB, which is what makes V8 grow it by less: after each
 * full collection V8 lets a heap grow to a multiple of what survived, 4× when the heap may reach 2 GiB
 * or more (this machine's default is 4 GiB), down to 2× below it. A worker keeps ~60 MB alive and
 * peaked at ~295 MB with the default, ~200 MB with this; at 10,000 pages the build's peak RSS fell from
 * 1,057 to 855–860 MiB at the same CPU time. (At 1 GiB the factor is 1.6, but V8 then also shrinks the young
 * generation: the scavenges took 2.5× as long and the build a quarter more CPU.) A machine whose default
 * is lower keeps its default: the cap never raises the limit.
 */
const OLD_GENERATION_MB = Math.min(1900, Math.floor(getHeapStatistics().heap_size_limit / 2 ** 20));

/**
 * Pages per message: large enough to keep messaging cheap, and shrinking towards the end (never more
 * than an even share of what is left) so the threads finish together instead of one waiting for
 * another's last batch.
 */
export const BATCH = 8;

/** How long `close` waits for a worker to commit its cache writes before stopping it anyway. */
const CLOSE_WAIT_MS = 10_000;

/** Options of `startPool`. */
export interface PoolStart {
  /** URL of the compiled worker entry. */
  workerUrl: URL;
  /** Number of threads. @default availableParallelism() */
  threads?: number;
  /**
   * How many files the site's content holds, when the build knows it before the pool starts (the
   * no-change check listed them). A site of no more than `BATCH` of them starts one thread: the others
   * would each load the markdown pipeline and the highlighter (some 0.7 s of CPU) for pages one thread
   * renders, on the cores that thread and the main thread need. A run with more pages than that
   * (an API reference's generated pages, say) starts the rest then. Unknown: every thread starts now.
   */
  files?: number;
  /**
   * The highlighter settings, so the workers can start it before their first page. A pool started
   * before the config is read has none yet: its threads load their modules meanwhile, and `configure`
   * gives the settings (and the content's size) once they are known.
   */
  highlighting?: HighlightSettings;
  /** Where the previous search index's state is, for a thread that may make a rebuild's index: it reads it as soon as it has loaded. */
  indexState?: StatePlace;
}

/** Worker threads waiting for pages. */
export interface RenderPool {
  /** Renders the jobs and returns their results in job order; `onPages` hears of each finished batch. */
  run: (context: PageJobContext, jobs: PageJob[], onPages?: (count: number) => void) => Promise<PageResult[]>;
  /** Has the first worker make a rebuild's search index (search/index-thread.ts), between or beside its pages. */
  index: (request: IndexRequest) => Promise<IndexDone>;
  /** Stops the workers once they have committed their cache writes. */
  close: () => Promise<void>;
  /**
   * Closes the pool as `close` does, but resolves once the workers have committed their cache writes:
   * they end meanwhile (a thread's end took 40–48 ms, the last stretch of a small build waiting for it).
   */
  finish: () => Promise<void>;
  /** Has the workers commit their cache writes and let the store go, and keeps them (a pool kept between builds). */
  commit: () => Promise<void>;
  /** Stops the workers at once, a page half-rendered or not (they keep no cache: `docs serve`); a run under way or asked for later fails. */
  stop: () => Promise<void>;
  /** True once the pool was closed or stopped, or one of its workers ended (a page ran it out of memory): it renders nothing more. */
  readonly stopped: boolean;
  /** How many threads it has started so far. */
  readonly threads: number;
  /**
   * Gives a pool started without them the highlighter settings, and the number of content files
   * (`PoolStart.files`): more threads start now when the site is larger than one thread's share.
   */
  configure: (highlighting: HighlightSettings, files: number | undefined) => void;
}

/** How many threads a pool starts with for a site of `files` content files (`PoolStart.files`). */
function threadsFor(files: number | undefined, threads: number): number {
  return files !== undefined && files <= BATCH ? 1 : threads;
}

/** Starts the workers now; they warm up until `run` gives them work. */
export function startPool(options: PoolStart): RenderPool {
  const threads = Math.max(1, options.threads ?? availableParallelism());
  const workers: Worker[] = [];
  let closing: Promise<void> | undefined;
  /** When the workers of a close have committed their cache writes (they end after). */
  let written: Promise<void> | undefined;
  let ended = false;
  // Each worker commits its cache writes first (a few milliseconds; never more than CLOSE_WAIT_MS once
  // it has loaded), then ends. Closing twice waits for the first close.
  const closeAll = (): Promise<void> => {
    if (closing) return closing;
    const commits = workers.map(async (worker) => {
      await loaded.get(worker);
      await committed(worker);
    });
    written = Promise.all(commits).then(() => undefined);
    // Heard by `finish` when it is asked; a close alone tells its failure through `closing`.
    written.catch(() => undefined);
    closing = Promise.all(
      workers.map(async (worker, at) => {
        await commits[at];
        await worker.terminate();
      }),
    ).then(() => undefined);
    return closing;
  };
  /** The context each worker was given last: a kept pool (docs serve) sends what changed since (`contextPatch`). */
  const given = new Map<Worker, PageJobContext>();
  /** Each worker's load (its `ready`): a worker is never stopped before it, see worker.ts. */
  const loaded = new Map<Worker, Promise<void>>();
  let highlighting = options.highlighting;
  /** Starts workers until `count` run (at most `threads`). */
  const grow = (count: number): void => {
    while (workers.length < Math.min(count, threads)) {
      const worker = new Worker(options.workerUrl, { workerData: { highlighting, ...(options.indexState && workers.length === 0 ? { indexState: options.indexState } : {}) } satisfies WorkerData, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB, maxOldGenerationSizeMb: OLD_GENERATION_MB } });
      worker.once('exit', () => (ended = true));
      loaded.set(worker, readyOf(worker));
      workers.push(worker);
    }
  };
  grow(threadsFor(options.files, threads));
  const stopOne = async (worker: Worker): Promise<void> => {
    await loaded.get(worker);
    await worker.terminate();
  };
  return {
    get stopped() {
      return ended || closing !== undefined;
    },
    get threads() {
      return workers.length;
    },
    configure(settings, files) {
      if (highlighting) return;
      highlighting = settings;
      for (const worker of workers) worker.postMessage({ highlighting: settings } satisfies WorkerRequest);
      grow(threadsFor(files, threads));
    },
    async run(context, jobs, onPages) {
      // A stopped thread would never answer.
      if (ended || closing) throw new Error('the render threads were stopped');
      const results: PageResult[] = new Array(jobs.length);
      // No more workers than batches: a small build does not wait for idle threads (nor start them).
      const wanted = Math.max(1, Math.ceil(jobs.length / BATCH));
      grow(wanted);
      const busy = workers.slice(0, wanted);
      // Each thread its lane of pages (lanes.ts): the grammars and diagrams it meets are mostly its own.
      const lanes = lanesOf(jobs, busy.length);
      const shared = stringSharer(jobs);
      let left = jobs.length;
      await Promise.all(
        busy.map(
          (worker, lane) =>
            new Promise<void>((resolve, reject) => {
              // Every listener goes when the run ends: a pool kept for a session (docs serve) runs many times.
              const done = (error?: Error): void => {
                worker.off('message', onMessage);
                worker.off('error', done);
                worker.off('exit', onExit);
                if (error) reject(error);
                else resolve();
              };
              const onExit = (code: number): void => done(new Error(`a render worker exited with code ${code}`));
              // The job numbers of the batch the worker has (one at a time).
              let batch: number[] = [];
              const send = (): void => {
                batch = takeBatch(lanes, lane, Math.max(1, Math.min(BATCH, Math.ceil(left / (2 * busy.length)))));
                if (batch.length === 0) return done();
                left -= batch.length;
                worker.postMessage({ id: batch[0]!, jobs: batch.map((number) => jobs[number]!) } satisfies WorkerRequest);
              };
              const onMessage = (response: WorkerResponse): void => {
                // The answers to batches carry their id (the thread may also answer an index, a close, its load).
                if (!('id' in response)) return;
                if ('failure' in response) return done(new Error(response.failure));
                response.results.forEach((result, i) => (results[batch[i]!] = shared(result)));
                onPages?.(response.results.length);
                send();
              };
              worker.on('message', onMessage);
              worker.once('error', done);
              worker.once('exit', onExit);
              const last = given.get(worker);
              worker.postMessage((last ? { patch: contextPatch(last, context) } : { context }) satisfies WorkerRequest);
              given.set(worker, context);
              send();
            }),
        ),
      );
      return results;
    },
    index(request) {
      if (ended || closing) return Promise.reject(new Error('the render threads were stopped'));
      grow(1);
      const worker = workers[0]!;
      return new Promise<IndexDone>((resolve, reject) => {
        const done = (settle: () => void): void => {
          worker.off('message', onMessage);
          worker.off('exit', onExit);
          settle();
        };
        const onMessage = (response: WorkerResponse): void => {
          if ('indexed' in response) done(() => resolve(response.indexed));
          else if ('indexFailure' in response) done(() => reject(new Error(response.indexFailure)));
        };
        const onExit = (code: number): void => done(() => reject(new Error(`a render worker exited with code ${code}`)));
        worker.on('message', onMessage);
        worker.once('exit', onExit);
        worker.postMessage({ index: request } satisfies WorkerRequest);
      });
    },
    close: closeAll,
    finish: () => {
      const all = closeAll();
      return written ?? all;
    },
    commit: () => (closing ? Promise.resolve() : Promise.all(workers.map(committed)).then(() => undefined)),
    stop: () => (closing ??= Promise.all(workers.map(stopOne)).then(() => undefined)),
  };
}

/** The jobs' lanes (lanes.ts) for `threads` threads: by the body's cost, or by the cost the doc kept when the thread is to read the body itself. */
export function lanesOf(jobs: PageJob[], threads: number): Lanes {
  return planLanes(
    jobs.map((job) => job.cost ?? (job.body === undefined ? undefined : pageCost(job.body))),
    threads,
  );
}

/**
 * What changed from `last` to `next`, field by field by identity (the markdown settings' fields too):
 * a save in `docs serve` changes the output folder and keeps the sidebars and the route map, which at
 * 10,000 pages are megabytes a message would copy (some 40 ms of every save).
 */
export function contextPatch(last: PageJobContext, next: PageJobContext): ContextPatch {
  const changed = <T extends object>(a: T, b: T): Partial<T> => {
    const patch: Partial<T> = {};
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof T>) if (a[key] !== b[key]) patch[key] = b[key];
    return patch;
  };
  const { markdown, ...rest } = changed(last, next);
  return markdown ? { ...rest, markdown: changed(last.markdown, next.markdown) } : rest;
}

/** Resolves once `worker` has loaded (it says `ready`), or is gone. */
function readyOf(worker: Worker): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      worker.off('message', onMessage);
      worker.off('exit', done);
      resolve();
    };
    const onMessage = (response: WorkerResponse): void => {
      if ('ready' in response) done();
    };
    worker.on('message', onMessage);
    worker.once('exit', done);
  });
}

/** Resolves once `worker` has committed its cache writes and let its store go (or CLOSE_WAIT_MS passed, or it is gone). */
function committed(worker: Worker): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('exit', done);
      resolve();
    };
    const onMessage = (response: WorkerResponse): void => {
      if ('closed' in response) done();
    };
    const timer = setTimeout(done, CLOSE_WAIT_MS);
    timer.unref();
    worker.on('message', onMessage);
    worker.once('exit', done);
    worker.postMessage({ close: true } satisfies WorkerRequest);
  });
}

/** Options of `runPageJobs`. */
export interface PoolOptions {
  context: PageJobContext;
  jobs: PageJob[];
  /** URL of the compiled worker entry; without it pages render on this thread. */
  workerUrl?: URL;
  /** Number of threads. @default availableParallelism() */
  threads?: number;
  /** A pool started earlier; used instead of starting one. The caller closes it. */
  pool?: RenderPool;
  /**
   * A render thread the caller keeps between builds (`docs serve`): pages too few for a pool render on
   * it instead of this thread, which stays free to answer requests. Its cache writes are committed
   * before the results are handed back.
   */
  thread?: RenderPool;
  /** Hears how many more pages are done, as they finish. */
  onPages?: (count: number) => void;
  /** The build store, for pages rendered on this thread. */
  store?: BuildStore;
}

/**
 * What a render thread sends arrives as a copy, every string of it too: a result's route, the page's own
 * file named once per link, the routes its links lead to, and heading ids that thousands of pages share
 * (`parameters`, `responses`, `overview`) were each a string of their own in the main thread's heap,
 * which holds every page's result to the end of the build. Each result is given the strings the main
 * thread holds already (the pages' routes) or met first (files, ids).
 */
export function stringSharer(jobs: readonly PageJob[]): (result: PageResult) => PageResult {
  const met = new Map<string, string>(jobs.map((job) => [job.route, job.route]));
  const share = (text: string): string => {
    const held = met.get(text);
    if (held !== undefined) return held;
    met.set(text, text);
    return text;
  };
  return (result) => {
    result.route = share(result.route);
    for (const link of result.links) {
      link.file = share(link.file);
      link.route = share(link.route);
      if (link.hash !== undefined) link.hash = share(link.hash);
    }
    for (let i = 0; i < result.ids.length; i++) result.ids[i] = share(result.ids[i]!);
    return result;
  };
}

/** Builds every page and returns the results in job order. */
export async function runPageJobs(options: PoolOptions): Promise<PageResult[]> {
  const { jobs, context } = options;
  // A pool started early (a cold build) has loaded the pipeline and the highlighter by now, or soon will:
  // even one page renders there, not on this thread, which would load both again (~1.3 s of a small build).
  if (options.pool) return options.pool.run(context, jobs, options.onPages);
  if (options.thread && jobs.length <= BATCH) {
    const results = await options.thread.run(context, jobs, options.onPages);
    await options.thread.commit();
    return results;
  }
  if (!options.workerUrl || jobs.length <= BATCH) {
    // Loaded on demand: the markdown pipeline (shiki, unified, remark) costs ~190 ms to import, which a
    // build that renders on workers, or reuses every page, should not pay on its main thread.
    const { PageBuilder } = await import('./page-job');
    const builder = new PageBuilder(context, undefined, options.store);
    const results: PageResult[] = [];
    try {
      for (const job of jobs) {
        results.push(await builder.build(job));
        options.onPages?.(1);
      }
    } finally {
      builder.dispose();
    }
    return results;
  }
  const pool = startPool({ workerUrl: options.workerUrl, threads: options.threads, highlighting: context.markdown });
  try {
    return await pool.run(context, jobs, options.onPages);
  } finally {
    await pool.close();
  }
}
