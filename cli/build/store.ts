/**
 * What a build keeps for the next one: one LMDB key-value store, `node_modules/.cache/docs/build.lmdb`,
 * and beside it the packs its large values are in (`packs/`, packs.ts).
 *
 * - `markdown`: each page's markdown stage result (body HTML, TOC, ids, links, images) by its markdown
 *   key (`markdownKey`: the page's file, its markdown, the markdown settings and the generator), and
 *   `search`: its search blocks by the same key. The render workers read and write both themselves, so
 *   the main thread never holds the site's HTML or text: the search index reads the blocks page by
 *   page. A page whose layout changed (config, template, runtime, sidebar) is laid out again without
 *   parsing and highlighting.
 * - `terms`: each page's search terms, counted (search/terms.ts), by the same key: written by the
 *   search index the first time it counts a page's blocks, so the next index reads the counts instead
 *   of the text.
 * - `pages`: what the previous build wrote for each route (its output key and its result).
 * - `reads`: each page file's doc (frontmatter, title, route, body hash) with the file's stats when it
 *   was read, by its path: a rebuild does not read a file whose stats are the same (read-cache.ts).
 * - `meta`: the `output` record, saying which output folder `pages` describes. It is removed before a
 *   build touches that folder and written back after, so a build killed half-way leaves no record, and
 *   the next build stages a whole new output (from the markdown cache, not from scratch).
 *
 * The values of every database but `meta` are in the packs, read with `pread`; LMDB holds where each
 * one is. A page of the store's file counts in the build's memory once the build touches it through
 * LMDB's map, and the kernel maps the cached pages around each one it faults in: values in LMDB were
 * 1.3 GB of a cold build's peak at 100,000 pages, and 533 MiB of a one-page edit's (docs/architecture.md).
 *
 * Why LMDB (the `lmdb` package, as Parcel's cache uses it) and not JSON files: a build reads and writes
 * only the entries of the pages that changed, its transactions survive a killed process, several
 * threads read and write it at once, and it has no size limit short of the disk (the one JSON file it
 * replaced passed V8's largest string near 40,000 pages). Measured at 10,000 pages: writing the JSON
 * cache cost 3.6 s and reading it 1.4 s on every build that rendered a page.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database } from 'lmdb';
import { collectPacks, openPacks, PACKS_DIR, type PackedDb, type Place } from './packs';
import type { SearchBlock } from '../../runtime/search/format';
import type { StoredTerms } from './search/terms';
import type { KeptRead } from './read-cache';
import { hash } from '../util/hash';
import { isCommitFailure } from '../util/commit-failure';
import type { MarkdownOptions } from './markdown/index';
import type { MarkdownEntry, PageJob, PageResult } from './page-job';
import { generatorVersion } from './version';
import { joinList, splitList } from '../util/string-list';

/**
 * The address space the store is mapped into from the start (the file grows only as data is written).
 * LMDB starts with 128 KB and maps the file again each time it outgrows the map, doubling, and keeps
 * every earlier map for the readers still using it: a page read in each of them counts in the
 * process's RSS once per map. Measured, 80 MB of values put in 4 KB entries: 97 MB of the store
 * resident with the growing map, 66 MB with one map from the start; 330 MB and 145 MB in 500-byte
 * entries. Past this size LMDB grows the map as before.
 */
const MAP_SIZE = 32 * 1024 ** 3;

/**
 * `MAP_SIZE`, where it can be had: not on Windows (LMDB may size the file to its map there), and not
 * in a process whose address space is limited (`ulimit -v`), where lmdb 3.5.6 does not fail but
 * crashes the process on a map larger than the limit. There LMDB grows its map as it did.
 */
function mapSizeOption(): { mapSize?: number } {
  if (process.platform === 'win32') return {};
  let limits = '';
  try {
    limits = readFileSync('/proc/self/limits', 'utf8');
  } catch {
    // No /proc (macOS): no address-space limit is set there by default.
  }
  const limit = /^Max address space\s+(\S+)/m.exec(limits)?.[1];
  return limit === undefined || limit === 'unlimited' ? { mapSize: MAP_SIZE } : {};
}

/** How long closing the store waits for its pending writes. */
const CLOSE_WAIT_MS = 2_000;

/** The store's file below the cache folder (LMDB adds `<name>-lock` beside it). */
export const STORE_FILE = 'store.lmdb';

/**
 * The store of versions before 2026-11-29, its results and docs in LMDB. LMDB never shrinks its file:
 * their places would stay scattered over 588 MB at 100,000 pages, all of it faulted in around them.
 * Found, it is removed with its packs before the store opens (a new version of docs renders every page
 * again anyway: its keys change).
 */
const EARLIER_STORE_FILE = 'build.lmdb';

/** A page's result as the store keeps it: everything but its search blocks (those are in `search`, by its markdown key). */
export type StoredResult = Omit<PageResult, 'search'>;

/** What the previous build wrote for one route. */
export interface PageOutput {
  /** Hash of every input of the page's bytes (`outputKeys`). */
  key: string;
  result: StoredResult;
}

/** The `output` record: the output folder that `pages` describes, as the build left it. */
export interface OutputRecord {
  outDir: string;
  /** Number of routes the build wrote. */
  pages: number;
  /**
   * The search index the build wrote: its files (below the output folder), the text of its entry
   * point, its document chunks' keys (search/index.ts) in the entry point's order, its posting
   * tails' keys, files and terms, and the id of the state it kept (search/state.ts). The index is
   * made from the pages alone, so when every page is reused it is this one; when some are not, the
   * next index keeps each chunk and tail whose key it makes again.
   */
  search: { files: string[]; entry: string; chunkKeys?: string[]; tailKeys?: [key: string, file: string, term?: string][]; state?: string };
  /**
   * Every file the output held once the build was done, and the fingerprint of the output then
   * (unchanged.ts `stampOutputs`): while the output has that fingerprint, the next build takes
   * the list instead of listing the output.
   */
  files?: string[];
  digest?: string;
  /** The digest of the route map the pages were made with (markdown/route-lookups.ts `routesDigest`). */
  routes?: string;
}

/** The `meta` database as the build sees it: the `output` record, its long lists kept as one string each (`storedRecord`). */
export interface RecordDb {
  get: (key: 'output') => OutputRecord | undefined;
  put: (key: 'output', record: OutputRecord) => Promise<boolean>;
  remove: (key: 'output') => Promise<boolean>;
}

/** The `output` record as the store keeps it: its lists of files and keys each one string (util/string-list.ts). */
interface StoredRecord extends Omit<OutputRecord, 'files' | 'search'> {
  files?: string;
  search: Omit<OutputRecord['search'], 'files' | 'chunkKeys' | 'tailKeys'> & { files: string; chunkKeys?: string; tailKeys?: string };
}

/** `record` as the store keeps it (`StoredRecord`). */
function storedRecord({ files, search, ...rest }: OutputRecord): StoredRecord {
  const { files: indexFiles, chunkKeys, tailKeys, ...index } = search;
  return {
    ...rest,
    ...(files ? { files: joinList(files) } : {}),
    search: { ...index, files: joinList(indexFiles), ...(chunkKeys ? { chunkKeys: joinList(chunkKeys) } : {}), ...(tailKeys ? { tailKeys: JSON.stringify(tailKeys) } : {}) },
  };
}

/** The record `stored` holds, undefined when it is no record this build can read (a damaged one, say). */
function recordOf(stored: unknown): OutputRecord | undefined {
  if (typeof stored !== 'object' || stored === null) return undefined;
  const { files, search, ...rest } = stored as Partial<Record<keyof StoredRecord, unknown>>;
  if (typeof search !== 'object' || search === null) return undefined;
  const { files: indexFiles, chunkKeys, tailKeys, ...others } = search as Partial<Record<keyof StoredRecord['search'], unknown>>;
  const list = splitList(indexFiles);
  const all = files === undefined ? undefined : splitList(files);
  const chunks = chunkKeys === undefined ? undefined : splitList(chunkKeys);
  let tails: unknown = tailKeys;
  try {
    if (typeof tailKeys === 'string') tails = JSON.parse(tailKeys);
  } catch {
    return undefined;
  }
  if (!list || (files !== undefined && !all) || (chunkKeys !== undefined && !chunks) || (tails !== undefined && !Array.isArray(tails))) return undefined;
  const index = { ...others, files: list, ...(chunks ? { chunkKeys: chunks } : {}), ...(tails ? { tailKeys: tails } : {}) } as OutputRecord['search'];
  return { ...(rest as Omit<OutputRecord, 'files' | 'search'>), ...(all ? { files: all } : {}), search: index };
}

/** The `output` record of `meta` through `storedRecord` and `recordOf`. */
function recordDb(meta: Database<unknown, string>): RecordDb {
  return {
    get: (key) => recordOf(meta.get(key)),
    put: (key, record) => meta.put(key, storedRecord(record)),
    remove: (key) => meta.remove(key),
  };
}

/** The build store's databases. */
export interface BuildStore {
  markdown: PackedDb<MarkdownEntry>;
  pages: PackedDb<PageOutput>;
  search: PackedDb<SearchBlock[]>;
  terms: PackedDb<StoredTerms>;
  reads: PackedDb<KeptRead>;
  meta: RecordDb;
  /** Runs `action`'s writes in one transaction; resolves when it is committed. */
  transaction: (action: () => void) => Promise<void>;
  /** Resolves when this thread's writes so far are committed (and visible to every reader). */
  flush: () => Promise<void>;
  /** Removes from the packs what no entry uses any more (packs.ts `collectPacks`); run once the build's writes are committed. */
  collect: () => Promise<void>;
  /** Waits for pending writes and closes this handle. */
  close: () => Promise<void>;
}

/**
 * The encoding of the entries every rebuild reads for every page (`pages`, `reads`): objects as plain
 * msgpack maps (packs.ts `PackedOptions.plain`). msgpackr's default, records, writes each entry's
 * object shapes into the entry (this store shares none between entries), and reading one makes a
 * reader for each shape again: in a profiled 10,000-page edit, 140 ms of the 160 ms that decoding the
 * kept docs took. The 10,000 kept docs of that corpus took 258 ms to read as records, and decode in 70
 * ms as maps (its results: 228 and 143 ms; one run, on a loaded machine).
 */
const PLAIN = { plain: true };

/**
 * Opens (creating) the store below `cacheDir`; undefined when it cannot be (a read-only site, a
 * store another version of LMDB wrote): the build then runs without a cache, as with `--no-cache`.
 * A store that exists but will not open is removed and made afresh, once.
 */
export function openStore(cacheDir: string): BuildStore | undefined {
  const path = join(cacheDir, STORE_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      mkdirSync(cacheDir, { recursive: true });
      removeEarlierStore(cacheDir);
      guardStrayCommitFailures();
      // Not `remapChunks` (the store mapped in chunks it lets go, 100 MiB less peak RSS at 10,000
      // pages): with it, the commit of a whole rebuild over an existing store failed with MDB_BAD_TXN
      // in two runs of three at 10,000 pages (lmdb 3.5.6), and the build with it.
      const opened = Date.now();
      const root = open({ path, maxDbs: 8, ...mapSizeOption() });
      const packs = openPacks(join(cacheDir, PACKS_DIR));
      // Where each value is in the packs; the values themselves are read with pread (packs.ts).
      const places = (name: string): Database<Place, string> => root.openDB<Place, string>({ name });
      // The `meta` database also keeps, under `packs`, the bytes of the packs the entries used at the last count.
      const meta = root.openDB<OutputRecord | number, string>({ name: 'meta' });
      const failed = (): void => {
        const failure = packs.failure();
        if (failure) throw new Error(writeFailure(failure));
      };
      const store: BuildStore = {
        markdown: packs.db<MarkdownEntry>(places('markdown')),
        pages: packs.db<PageOutput>(places('pages'), PLAIN),
        search: packs.db<SearchBlock[]>(places('search')),
        terms: packs.db<StoredTerms>(places('terms')),
        reads: packs.db<KeptRead>(places('reads'), PLAIN),
        meta: recordDb(meta),
        transaction: async (action) => {
          try {
            await root.transaction(action);
          } catch (error) {
            throw new Error(writeFailure(error));
          }
          failed();
        },
        flush: async () => {
          try {
            await root.committed;
          } catch (error) {
            throw new Error(writeFailure(error));
          }
          failed();
        },
        collect: async () => {
          try {
            const last = meta.get('packs');
            const used = await collectPacks(root, join(cacheDir, PACKS_DIR), packs, opened, typeof last === 'number' ? last : 0);
            if (used !== last) await meta.put('packs', used);
          } catch {
            // Packs not collected cost disk space until the next build collects them, nothing else.
          }
        },
        // After a failed commit LMDB may never settle what was pending: closing waits a while, not for ever.
        close: () =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, CLOSE_WAIT_MS);
            void (async () => {
              await Promise.resolve(root.committed).catch(() => undefined);
              packs.close();
              await root.close();
            })()
              .catch(() => undefined)
              .finally(() => {
                clearTimeout(timer);
                resolve();
              });
          }),
      };
      store.meta.get('output'); // reads the file now, so a damaged one fails here and not mid-build
      return store;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (attempt > 0 || code === 'EACCES' || code === 'EROFS' || code === 'EPERM') return undefined;
      try {
        rmSync(path, { force: true });
        rmSync(`${path}-lock`, { force: true });
        rmSync(join(cacheDir, PACKS_DIR), { recursive: true, force: true });
      } catch {
        // A store this user may not replace (another user's files, a read-only cache): the build goes
        // on without one, as it does when the store cannot be opened.
        return undefined;
      }
    }
  }
  return undefined;
}

/** Removes the store an earlier version left in `cacheDir` (`EARLIER_STORE_FILE`), and the packs its places named. */
function removeEarlierStore(cacheDir: string): void {
  const earlier = join(cacheDir, EARLIER_STORE_FILE);
  if (!existsSync(earlier)) return;
  // The packs first: a removal cut short leaves the earlier file, and the next build removes both again.
  rmSync(join(cacheDir, PACKS_DIR), { recursive: true, force: true });
  rmSync(`${earlier}-lock`, { force: true });
  rmSync(earlier, { force: true });
}

/**
 * What a failed write says. When LMDB cannot commit (a full disk), each write's promise is rejected
 * with "Commit failed (see commitError for details)", the cause in one more promise, `commitError`.
 */
function writeFailure(error: unknown): string {
  if ((error as { commitError?: unknown } | undefined)?.commitError instanceof Promise) return 'its writes did not commit: is the disk full?';
  return error instanceof Error ? error.message : String(error);
}

let guarded = false;

/**
 * When a commit fails, LMDB rejects promises no one awaits: `commitError`, and the writes of its own
 * (the shared structures of its record encoding). The failure is the store's to report (its `flush`
 * and `transaction` reject, and the build goes on without it), not a reason to end the thread (lmdb
 * 3.5.6 would): any other unhandled rejection still ends it, as by default.
 */
function guardStrayCommitFailures(): void {
  if (guarded) return;
  guarded = true;
  process.on('unhandledRejection', (reason) => {
    if (isCommitFailure(reason)) return;
    throw reason;
  });
  // The store's own `flush` then handles a rejection the line above let pass: heard here, Node prints
  // no PromiseRejectionHandledWarning for it.
  process.on('rejectionHandled', () => undefined);
}

/**
 * What every markdown key of a build shares: the generator and the markdown settings. Not the route
 * map: an entry stands while the routes answer its links as they did (markdown/route-lookups.ts).
 */
export function markdownSalt(markdown: MarkdownOptions): string {
  const { routeOfFile: _routes, ...settings } = markdown;
  return hash(generatorVersion() + JSON.stringify(settings));
}

/** A page's markdown key: its file and its markdown, salted with `markdownSalt`. */
export function markdownKey(salt: string, rel: string, body: string): string {
  return hash(`${salt}\0${rel}\0${body}`);
}

/**
 * Records in the store what the output now holds, in one transaction: the rendered pages' keys,
 * results and search blocks, no entry for a route that is gone, no markdown entry no page uses, and
 * last the output record that makes the rest count.
 *
 * The entries that go are found by what changed, not by reading every key: the previous entries of
 * the pages rendered again name theirs. Only when a database holds more entries than the build uses
 * after that (a killed build's, `docs serve`'s edits) are its keys read to find the strays. Reading
 * every key touches every page of the store, and the pages touched stay in the build's memory: at
 * 100,000 pages that was 0.9 GB of a cold build's peak, for a store with nothing to remove.
 */
export async function saveState(store: BuildStore, { record, jobs, results, keys, rendered }: { record: OutputRecord; jobs: PageJob[]; results: PageResult[]; keys: string[]; rendered: number[] }): Promise<boolean> {
  const routes = new Set(jobs.map((job) => job.route));
  const used = new Set(results.flatMap((result) => result.markdownKey ?? []));
  const markdownDbs = [store.markdown, store.search, store.terms];
  try {
    // Every write of the build committed, so the counts below are of what the store holds.
    await store.flush();
    const storedRoutes = entryCount(store.pages);
    const stored = markdownDbs.map(entryCount);
    await store.transaction(() => {
      // The markdown keys of the pages rendered again, as their previous entries name them.
      const gone = new Set<string>();
      let added = 0;
      for (const i of rendered) {
        const before = store.pages.get(jobs[i]!.route);
        if (!before) added++;
        else if (typeof before.result?.markdownKey === 'string' && !used.has(before.result.markdownKey)) gone.add(before.result.markdownKey);
        const { search: _search, ...result } = results[i]!;
        // A write the packs do not take (a full disk) fails the transaction (`failed`): its own promise is let go.
        store.pages.put(jobs[i]!.route, { key: keys[i]!, result: { ...result, cached: true } }).catch(() => undefined);
      }
      // Every route has its entry now (a page kept had one): more entries than routes means some are gone.
      if (storedRoutes + added > routes.size) {
        for (const route of store.pages.getKeys()) if (!routes.has(route)) store.pages.remove(route);
      }
      markdownDbs.forEach((db, d) => {
        let removed = 0;
        for (const key of gone) {
          if (!db.doesExist(key)) continue;
          db.remove(key);
          removed++;
        }
        if (stored[d]! - removed > used.size) for (const key of db.getKeys()) if (!used.has(key)) db.remove(key);
      });
      store.meta.put('output', record);
    });
    await store.collect();
    return true;
  } catch {
    // A store that cannot be written costs the next build its speed, not this build.
    return false;
  }
}

/** The number of entries of a store database (LMDB keeps it: nothing is read). */
export function entryCount(db: { getStats: () => object }): number {
  return (db.getStats() as { entryCount: number }).entryCount;
}
