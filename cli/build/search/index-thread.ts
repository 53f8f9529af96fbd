/**
 * A rebuild's search index, made on the warm render thread while the main thread finds which pages
 * changed. At 10,000 pages the index of a one-page edit is some 0.45 s of work over every page (reading
 * its 41 MB state, taking each unchanged page's documents from it, placing the postings of the shards
 * the edit touched), and the main thread's own part of the rebuild (the output's stamps, every page's
 * output key and stored result, the link checks) as long again; the warm thread has rendered the edited
 * page by then and waits. So the main thread hands it the index as soon as it has the pages
 * (start.ts starts that thread with the build; pages.ts `renderEarly` gives it the edited pages).
 *
 * The thread does not wait for what the main thread finds: it takes each page's blocks by the markdown
 * key it rendered the page with, or, for a page it did not render, by the key the previous index's
 * state holds for the page shown alike (or else the key of the page's stored result: reading every
 * page's was 0.1 s), and it lists the index files the output holds. Without a state (an index too
 * large to keep one) it leaves the index to the main thread: memory, not time, decides there.
 *
 * Once the build knows its pages' results, the index is taken only when those keys are the results'
 * keys, every page's blocks are in the store, and every index file it kept is one the build found
 * unchanged in the output; otherwise what it wrote is removed and the main thread makes the index, as
 * it does for every other build. Either way the index is the one the main thread would have made (a
 * test builds both and compares them).
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { SearchPage } from '../../../runtime/search/format';
import { hash } from '../../util/hash';
import type { RenderPool } from '../pool';
import type { BuildStore, OutputRecord } from '../store';
import { readOutput, writeOutput } from '../write';
import { SEARCH_DIR } from './index';
import { makeBuildIndex, type IndexedResult, type PreviousRecord } from './source';
import { keysOf, readState, shownOf, type IndexState } from './state';

/** What the main thread hands the thread: everything `makeBuildIndex` takes but the results and the output's files. */
export interface IndexRequest extends StatePlace {
  pages: SearchPage[];
  previous: PreviousRecord;
  /** The output folder, whose index files the new index may keep. */
  outDir: string;
  /** The staging folder the new index's files are written into. */
  staging: string;
}

/** The thread's index. */
export interface IndexDone {
  search: OutputRecord['search'];
  /** The markdown keys it read the pages' blocks by (`keysDigest`). */
  keys: string;
  /** The files it wrote below the staging folder. */
  written: string[];
  /** The files of the output it read (the previous index's shards made again, for their unchanged terms). */
  read: string[];
  /** How long it took, for the build's report. */
  seconds: number;
}

/** Where a thread finds the previous index's state: the state file, and the generator's version that made it. */
export interface StatePlace {
  stateFile: string;
  salt: string;
}

/** The previous index's state as a thread read it, and the key it holds for each page (`keysOf`). */
export interface ReadState extends StatePlace {
  state: IndexState | undefined;
  keys: Map<string, string>;
}

/**
 * Reads the previous index's state at `place`. A warm thread does it while it waits for its first pages
 * (start.ts gives it the place): 60–85 ms at 10,000 pages, then not on the way of the index.
 */
export function readIndexState(place: StatePlace): ReadState {
  const state = readState(place.stateFile, place.salt);
  return { ...place, state, keys: state ? keysOf(state) : new Map<string, string>() };
}

/**
 * Makes the index on a render thread (worker.ts). `rendered` holds the markdown keys of the pages the
 * thread rendered in this build, by route; the other pages' come from the previous index's state
 * (`read`, when the thread read it already, of this request's place) or their stored results. The
 * index is handed over before its state is written (`kept`, some 35 ms at 10,000 pages, which the
 * main thread spends on the output meanwhile): the thread waits for it before it stops.
 */
export async function indexOnThread(request: IndexRequest, store: BuildStore, rendered: ReadonlyMap<string, string | undefined>, read?: ReadState): Promise<{ done: IndexDone; kept: Promise<void> }> {
  const started = performance.now();
  // This thread's own writes (the edited pages' blocks) are read back once committed.
  await store.flush();
  const { salt, stateFile } = request;
  // The previous index's state says what each page's key was: the same page shown alike had that key.
  const { state, keys: before } = read && read.stateFile === stateFile && read.salt === salt ? read : readIndexState(request);
  // No state (an index of more postings than it keeps, at 100,000 pages say): the index would read
  // every page's stored result and count every page, in this thread's heap beside the main thread's
  // (a one-page edit at 100,000 pages: 22.5 s and 2,270 MiB here, 26 s and 1,925 MiB there).
  if (!state) throw new Error('the previous index kept no state: the main thread makes the index');
  // A page the state shows otherwise (a section renamed, say) by its stored result's key.
  const keyOf = (page: SearchPage): string | undefined => (rendered.has(page.route) ? rendered.get(page.route) : (before.get(shownOf(page)) ?? store.pages.get(page.route)?.result.markdownKey));
  const results: IndexedResult[] = request.pages.map((page) => ({ route: page.route, markdownKey: keyOf(page) }));
  const written: string[] = [];
  const write = (file: string, text: string): void => {
    writeOutput(request.staging, file, text);
    written.push(file);
  };
  // The output's files it reads, which the build then checks it found as it left them (`fits`).
  const opened: string[] = [];
  const readPrevious = (file: string): string | undefined => {
    opened.push(file);
    return readOutput(request.outDir, file);
  };
  let kept = Promise.resolve();
  const search = await makeBuildIndex({ pages: request.pages, results, store, stateFile, previous: request.previous, present: indexFiles(request.outDir), read: readPrevious, write, known: { salt, state }, keeping: (written) => (kept = written) });
  return { done: { search, keys: keysDigest(results), written, read: opened, seconds: (performance.now() - started) / 1000 }, kept };
}

/** The index files `outDir` holds, as paths below it. */
function indexFiles(outDir: string): Set<string> {
  try {
    return new Set(readdirSync(join(outDir, SEARCH_DIR)).map((name) => `${SEARCH_DIR}/${name}`));
  } catch {
    return new Set();
  }
}

/** One digest of the pages' markdown keys, in page order. */
export function keysDigest(results: readonly IndexedResult[]): string {
  return hash(results.map((result) => result.markdownKey ?? '').join('\n'));
}

/** An index under way on a render thread (`indexElsewhere`). */
export interface IndexElsewhere {
  /**
   * The index, when it was made from what the build's pages turned out to be (`results`) and kept only
   * files the output holds unchanged (`present`); otherwise undefined, and its files are removed from the
   * staging folder.
   */
  take: (results: readonly IndexedResult[], present: ReadonlySet<string>) => Promise<IndexDone | undefined>;
  /** Waits for the thread, and removes the files it wrote: the build does not want its index. */
  discard: () => Promise<void>;
  /** Resolves once the thread is done with the index (made or failed): it then writes no more. */
  settled: Promise<void>;
}

/** Has `thread` make the index of `request` (see the top of this file). */
export function indexElsewhere(thread: RenderPool, request: IndexRequest): IndexElsewhere {
  // A failure (a page's blocks missing from the store, the thread stopped) leaves the index to the main thread.
  const made = thread.index(request).catch(() => undefined);
  // Only the index writes below the staging folder's index folder, and the main thread's has not started.
  const discard = (): void => rmSync(join(request.staging, SEARCH_DIR), { recursive: true, force: true });
  return {
    take: async (results, present) => {
      const done = await made;
      if (done && fits(done, results, present)) return done;
      discard();
      return undefined;
    },
    discard: async () => {
      await made;
      discard();
    },
    settled: made.then(() => undefined),
  };
}

/** True when `done` is the index of `results`, made over index files the output holds unchanged (`present`). */
function fits(done: IndexDone, results: readonly IndexedResult[], present: ReadonlySet<string>): boolean {
  // A page whose blocks are not in the store (it was rendered without it) has them in its result only.
  if (results.some((result) => result.search !== undefined || result.markdownKey === undefined)) return false;
  if (keysDigest(results) !== done.keys) return false;
  const written = new Set(done.written);
  return done.search.files.every((file) => written.has(file) || present.has(file)) && done.read.every((file) => present.has(file));
}
