/**
 * The main thread's heap during a build: collected as it goes while a large build reads the content and
 * after its search index, and kept from growing by V8's own factor once the render threads are gone.
 * (The render threads' heaps are the pool's, pool.ts: their limits are set when they start.)
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * How far past what survived its last full collection V8 lets a heap grow before the next one, once
 * the pages are rendered: 25%. By default the factor is V8's own, up to 4× on a heap that may reach 2
 * GiB or more: the main thread, which holds every page's doc and result and then makes the search
 * index, kept 750–940 MB alive at the end of a 100,000-page build in a heap of 1.24 GB. The flag is the
 * process's (V8's flags are), so it is set only when the render workers are gone: set from the start,
 * it took the 100,000-page build's peak from 1,546 to 1,404 MiB and its CPU time up by 11%, the
 * workers collecting more often. A `--heap-growing-percent` given to Node (NODE_OPTIONS or the command
 * line) is kept.
 */
const HEAP_GROWING_PERCENT = 25;

/**
 * The main thread's heap in use from which `limitHeapGrowth` sets `HEAP_GROWING_PERCENT`: 256 MB. A
 * smaller heap keeps V8's own factor. At 10,000 pages the heap holds some 110–140 MB when the pages are
 * rendered, far from any memory target, and a quarter's growth cost a one-page edit one more full
 * collection while its search index ran (four instead of three, `--trace-gc`): 1.55–1.60 s against
 * 1.46–1.58 s in five alternated edits, the same peak RSS. At 100,000 pages 435 MB were alive there.
 */
const LIMIT_FROM_BYTES = 256 * 2 ** 20;

/** Sets `HEAP_GROWING_PERCENT` for the rest of the process, when the heap is large enough for it to matter (`LIMIT_FROM_BYTES`). */
export function limitHeapGrowth(): void {
  if (getHeapStatistics().used_heap_size < LIMIT_FROM_BYTES) return;
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((arg) => /^--heap[-_]growing[-_]percent\b/.test(arg));
  if (!given) setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/** Pages from which a build collects the main thread's garbage as rendering starts and once the search index is made (`collectGarbage`). */
export const MANY_PAGES = 2000;

/** Files read between two collections of the main thread's garbage while the content is read (`collectGarbage`). */
export const COLLECT_EVERY_FILES = 10_000;

/** V8's full collection, once asked for (`collectGarbage`); null where it cannot be had. */
let fullCollection: (() => void) | null | undefined;

/**
 * Collects this thread's garbage now. A large build's main thread makes garbage in bursts (reading
 * every file, then the routes and sidebars; the search index) and otherwise waits for the render
 * threads, allocating little, and V8 let that garbage lie while the render threads' heaps grew: at
 * 100,000 pages the main thread's heap held 527 MB as the pages started, of which 255 MB lived, and
 * V8 had grown it to 603 MB and kept that until its memory reducer ran, a minute and a half into the
 * rendering; the build's peak came then, 1.46–1.51 GiB, moving with V8's moment from run to run.
 * Collected every `COLLECT_EVERY_FILES` files read (some 0.05–0.2 s each at 100,000 pages), the heap
 * is 370–380 MB as the pages start, the early rendering's RSS 1,269–1,296 MiB. A collection after the
 * index (whose postings are then garbage) took the end of the same build from 1,536 to 1,282 MiB. A
 * collection does not give back what V8 grew the heap to: it has to come before the growth. `gc` is
 * exposed, by V8's flag, to the contexts made from then on, and taken from one; the process's own
 * global gets none.
 */
export function collectGarbage(): void {
  if (fullCollection === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      fullCollection = runInNewContext('gc') as () => void;
    } catch {
      fullCollection = null;
    }
  }
  fullCollection?.();
}
