/**
 * What the build's search index reads (search/index.ts `IndexSource`): each page's blocks from its
 * result (a build without the store) or from the build store by the page's markdown key, the counted
 * terms the store kept for that key, and the previous index's document chunks and posting tails the
 * output still holds.
 * A page whose terms were not kept is counted from its blocks, and its counts kept for the next build.
 */
import type { SearchBlock, SearchMeta } from '../../../runtime/search/format';
import type { PageResult } from '../page-job';
import type { BuildStore, OutputRecord } from '../store';
import { SEARCH_DIR, type IndexSource } from './index';
import { fromStored, storedTerms } from './terms';
import { generatorVersion } from '../version';

/** The index's source over a build's page results (in page order). */
export function buildIndexSource({ results, store, previous, present }: { results: PageResult[]; store?: BuildStore; previous?: OutputRecord; present?: ReadonlySet<string> }): IndexSource {
  const keyOf = (page: number): string | undefined => (store ? results[page]!.markdownKey : undefined);
  return {
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
    previousChunk: previousChunks(previous, present),
    previousTail: store ? previousTails(previous, present) : undefined,
    salt: generatorVersion(),
  };
}

/** The previous index's posting tails by key, those the output still holds. */
function previousTails(previous: OutputRecord | undefined, present: ReadonlySet<string> | undefined): (key: string) => string | undefined {
  const files = new Map<string, string>();
  const keys = previous?.search.tailKeys;
  if (present && Array.isArray(keys)) {
    for (const entry of keys) if (Array.isArray(entry) && typeof entry[1] === 'string' && present.has(`${SEARCH_DIR}/${entry[1]}`)) files.set(String(entry[0]), entry[1]);
  }
  return (key) => files.get(key);
}

/** A page's search blocks: those its result carries, or those the store keeps by its markdown key. */
export function blocksOf(results: PageResult[], store: BuildStore | undefined, page: number): SearchBlock[] {
  const result = results[page]!;
  return result.search ?? (store && result.markdownKey ? store.search.get(result.markdownKey) : undefined) ?? [];
}

/** The previous index's chunk files by key, those the output still holds. */
function previousChunks(previous: OutputRecord | undefined, present: ReadonlySet<string> | undefined): ((key: string) => string | undefined) | undefined {
  const keys = previous?.search.chunkKeys;
  if (!previous || !present || !Array.isArray(keys)) return undefined;
  let meta: Partial<SearchMeta>;
  try {
    meta = JSON.parse(previous.search.entry) as Partial<SearchMeta>;
  } catch {
    return undefined;
  }
  if (!Array.isArray(meta.chunks) || meta.chunks.length !== keys.length) return undefined;
  const files = new Map<string, string>();
  keys.forEach((key, i) => {
    const file = meta.chunks![i]!;
    if (key && typeof file === 'string' && present.has(`${SEARCH_DIR}/${file}`)) files.set(key, file);
  });
  return (key) => files.get(key);
}
