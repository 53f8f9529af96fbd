/**
 * A build's search index (search/index.ts) over the build's pages, and `docs serve`'s. The index reads
 * each page's blocks from its result (a build without the store) or from the build store by the page's
 * markdown key, the counted terms the store kept for that key, and the previous index's document chunks
 * and posting tails the output still holds. A page whose terms were not kept is counted from its
 * blocks, and its counts kept for the next build.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { sectionItemOf } from '../../../runtime/routing';
import type { SearchBlock, SearchMeta, SearchPage } from '../../../runtime/search/format';
import type { ResolvedConfig } from '../config';
import type { ContentTree } from '../content';
import type { PageResult } from '../page-job';
import type { BuildStore, OutputRecord } from '../store';
import { DocsError } from '../../util/errors';
import { SEARCH_DIR, SEARCH_ENTRY, searchIndexInSlices, type IndexLimits, type IndexSource, type SearchInput } from './index';
import { fromStored, storedTerms } from './terms';
import { dropState, readState, strings, writeState, type IndexState, type PreviousIndex } from './state';
import { generatorVersion } from '../version';

/** How long the build's index holds the main thread between two turns of the event loop. */
const SLICE_MS = 50;

/** What the index reads of a page's result: where its blocks are (in it, or in the store by its markdown key). */
export type IndexedResult = Pick<PageResult, 'route' | 'search' | 'markdownKey'>;

/** What the index reads of the previous output's record: its index. */
export type PreviousRecord = Pick<OutputRecord, 'search'>;

/** The generator's version (the state's salt) and the state read from the state file with it, when the caller has them already. */
export interface KnownState {
  salt: string;
  state: IndexState | undefined;
}

/**
 * Makes the build's search index, handing `write` each file the output does not hold yet (its name is
 * its content's hash: one the output holds is the same file), and returns its record. In slices, so
 * the store commits the page counts the index hands it as it goes. The index's state (state.ts) is
 * written meanwhile, and waited for, unless `keeping` takes the write's promise: a render thread
 * (index-thread.ts) hands the index over first, and waits for its state before it stops.
 */
export async function makeBuildIndex({ pages, results, store, stateFile, previous, present, read, write, limits, known, keeping }: { pages: SearchPage[]; results: IndexedResult[]; store?: BuildStore; stateFile?: string; previous?: PreviousRecord; present?: ReadonlySet<string>; read?: (file: string) => string | undefined; write: (file: string, text: string) => void; limits?: IndexLimits; known?: KnownState; keeping?: (written: Promise<void>) => void }): Promise<OutputRecord['search']> {
  const made: OutputRecord['search'] = { files: [], entry: '' };
  const writer = {
    file: (file: string, text: string) => {
      if (file === SEARCH_ENTRY) made.entry = text;
      else if ((made.files.push(file), !present?.has(file))) write(file, text);
    },
    kept: (file: string) => made.files.push(file),
  };
  const source = buildIndexSource({ results, store, stateFile, previous, present, read, known });
  const { chunkKeys, tailKeys, stateId } = (await searchIndexInSlices(pages, source, writer, { sliceMs: SLICE_MS, ...limits }))!;
  if (keeping) keeping(source.stateKept ?? Promise.resolve());
  else await source.stateKept;
  return { ...made, chunkKeys, tailKeys, ...(stateId ? { state: stateId } : {}) };
}

/**
 * The index's source over a build's page results (in page order). With the store, the index keeps its
 * state in `stateFile` (state.ts) for the next build. `read` gives the text of a file of the output
 * (a path below it), one of `present`.
 */
export function buildIndexSource({ results, store, stateFile, previous, present, read, known }: { results: IndexedResult[]; store?: BuildStore; stateFile?: string; previous?: PreviousRecord; present?: ReadonlySet<string>; read?: (file: string) => string | undefined; known?: KnownState }): IndexSource & { stateKept?: Promise<void> } {
  const keyOf = (page: number): string | undefined => (store ? results[page]!.markdownKey : undefined);
  const salt = known?.salt ?? generatorVersion();
  const previousMeta = entryOf(previous);
  const chunks = previousChunks(previous, previousMeta);
  const source: IndexSource & { stateKept?: Promise<void> } = {
    blocks: (page) => blocksOf(results, store, page),
    terms: (page) => {
      const key = keyOf(page);
      return key === undefined ? undefined : fromStored(store!.terms.get(key));
    },
    counted: (page, terms) => {
      const key = keyOf(page);
      // A write the store does not take costs the next build its speed, not this one.
      if (key !== undefined) store!.terms.put(key, storedTerms(terms)).catch(() => undefined);
    },
    blocksKey: keyOf,
    previousChunk: keptFiles(chunks, present),
    // Tails are keyed only when asked for: a build with the store, whose record keeps their keys.
    previousTail: store ? (keptFiles(previous?.search.tailKeys, present) ?? (() => undefined)) : undefined,
    previousShard: read && present ? (file) => (present.has(`${SEARCH_DIR}/${file}`) ? read(`${SEARCH_DIR}/${file}`) : undefined) : undefined,
    salt,
    settle: async () => void (await store?.flush()),
    ...(store && stateFile
      ? {
          previousState: () => (known ? known.state : readState(stateFile, salt)),
          previousIndex: (id: string) => (previous?.search.state === id ? previousIndexOf(previous, previousMeta, chunks, present) : undefined),
          // Written while the index makes its shards; the build waits for it with the index.
          keepState: (state) => void (source.stateKept = state ? writeState(stateFile, state) : Promise.resolve(dropState(stateFile))),
        }
      : {}),
  };
  return source;
}

/** The previous index's entry point, when its record has one that parses. */
function entryOf(previous: PreviousRecord | undefined): Partial<SearchMeta> | undefined {
  try {
    return previous ? (JSON.parse(previous.search.entry) as Partial<SearchMeta>) : undefined;
  } catch {
    return undefined;
  }
}

/** What of the previous index the next may keep (state.ts): its shards and tails the output still holds, and its chunks' keys (`chunks`, as `previousChunks` reads them). */
function previousIndexOf(previous: PreviousRecord, meta: Partial<SearchMeta> | undefined, chunks: [key: string, file: string][] | undefined, present: ReadonlySet<string> | undefined): PreviousIndex | undefined {
  const { split, sections, shards } = meta ?? {};
  if (!present || !strings(split) || !strings(sections) || typeof shards !== 'object' || shards === null) return undefined;
  const held = (file: unknown): file is string => typeof file === 'string' && present.has(`${SEARCH_DIR}/${file}`);
  const tails = new Map<string, [key: string, file: string]>();
  for (const entry of previous.search.tailKeys ?? []) {
    const [key, file, term] = Array.isArray(entry) ? entry : [];
    if (typeof key === 'string' && key && typeof term === 'string' && held(file)) tails.set(term, [key, file]);
  }
  const chunkKeys = chunks?.map(([key]) => key);
  return { split, sections, shards: new Map(Object.entries(shards).filter((pair): pair is [string, string] => held(pair[1]))), tails, ...(chunkKeys ? { chunkKeys } : {}) };
}

/**
 * A page's search blocks: those its result carries, or those the store keeps by its markdown key. The
 * store has them for every page this build rendered (a render thread writes them before its result
 * comes back) or kept; they go missing when the cache is removed or cleared while a build runs, or a
 * file of it between two builds. The index would then hold such a page without its text (or fail on
 * its counts, which may still be read): the build stops and says so, and forgets every such page's
 * kept output, so that the next build renders them again.
 */
export function blocksOf(results: IndexedResult[], store: BuildStore | undefined, page: number): SearchBlock[] {
  const result = results[page]!;
  if (result.search || !store || !result.markdownKey) return result.search ?? [];
  const blocks = store.search.get(result.markdownKey);
  if (blocks) return blocks;
  const lost = results.filter((other) => !other.search && other.markdownKey && !store.search.get(other.markdownKey));
  for (const other of lost) store.pages.remove(other.route).catch(() => undefined);
  throw new DocsError('usage', [{ file: CACHE_DIR, message: `has lost the search text of ${lost.length === 1 ? result.route : `${lost.length} pages (${result.route} first)`}: was the cache, or a file of it, removed while a build ran?`, fix: 'build again: those pages will be rendered again (the output was left untouched)' }]);
}

/** The build cache, as a writer sees it from the site's folder. */
const CACHE_DIR = 'node_modules/.cache/docs';

/** The previous index's document chunks, as [key, file] pairs in the order of its entry point's `chunks`. */
function previousChunks(previous: PreviousRecord | undefined, meta: Partial<SearchMeta> | undefined): [key: string, file: string][] | undefined {
  const keys = previous?.search.chunkKeys;
  if (!Array.isArray(keys) || !meta || !Array.isArray(meta.chunks)) return undefined;
  return meta.chunks.length === keys.length ? keys.map((key, i) => [key, meta.chunks![i]!]) : undefined;
}

/** Looks up the previous index's files by key, those of `pairs` the output still holds. */
function keptFiles(pairs: readonly (readonly [key: string, file: string, ...rest: unknown[]])[] | undefined, present: ReadonlySet<string> | undefined): ((key: string) => string | undefined) | undefined {
  if (!pairs || !present) return undefined;
  const files = new Map<string, string>();
  for (const pair of pairs) {
    if (Array.isArray(pair) && pair[0] && typeof pair[1] === 'string' && present.has(`${SEARCH_DIR}/${pair[1]}`)) files.set(String(pair[0]), pair[1]);
  }
  return (key) => files.get(key);
}

/** The pages of a content tree as the search index shows them (title, section, method), in the order of `content.docs`. */
export function searchPagesOf(config: ResolvedConfig, content: ContentTree): SearchPage[] {
  const itemOf = sectionItemOf(config.site.navbar);
  return content.docs.map((doc) => {
    const navbar = itemOf(doc.route);
    const section = [navbar?.label, ...doc.breadcrumbs.map((crumb) => crumb.label)].filter(Boolean).join(' › ');
    const method = /\bapi-method-(\w+)/.exec(doc.frontmatter.sidebar_class_name ?? '')?.[1];
    return { route: doc.route, title: doc.title, section, ...(method ? { method } : {}) };
  });
}

/** The search index's input from a content tree and its page results (in the order of `content.docs`). */
export function searchInputOf(config: ResolvedConfig, content: ContentTree, results: PageResult[]): SearchInput[] {
  return searchPagesOf(config, content).map((page, i) => ({ ...page, blocks: results[i]!.search ?? [] }));
}

/**
 * Writes the search index below `outDir`, and removes index files an earlier write left that the
 * new index does not name (`docs serve` rewrites it in place after a save).
 */
export function writeSearchIndex(outDir: string, files: Record<string, string>): void {
  const dir = join(outDir, SEARCH_DIR);
  mkdirSync(dir, { recursive: true });
  const keep = new Set(Object.keys(files).map((file) => basename(file)));
  for (const name of readdirSync(dir)) if (!keep.has(name)) rmSync(join(dir, name), { force: true });
  // Every file but the entry point is named by its content's hash: one already there is this one.
  for (const [file, text] of Object.entries(files)) {
    const path = join(outDir, file);
    if (file === SEARCH_ENTRY || !existsSync(path)) writeFileSync(path, text);
  }
}
