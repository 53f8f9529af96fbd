/**
 * Ranking and picking for the query engine (engine.ts): documents sorted by score, the pages a query
 * names raised, the records of a shard's flat lists found by key, and the first results chosen from
 * the ranked documents, at most PER_PAGE a page and one a heading.
 */
import type { SearchPage, SearchShard } from './format';
import type { SearchResult } from './engine';

/** Results per page at most, so one long page does not fill the list. */
const PER_PAGE = 2;

/**
 * A result on a page whose title has every word of the query counts this much more, and one whose
 * title is the query (its words, in any order) `TITLE_IS_QUERY`: a reader who types a page's name
 * wants that page before the sections of others that mention it.
 */
export const TITLE_HAS_QUERY = 1.5;
export const TITLE_IS_QUERY = 2;
/** And the top of such a page (the text under its title, before any heading) this much more again. */
const TITLE_BLOCK = 1.5;


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

/** Results a list shows at a time: the dialog's first list, and each that More results adds. */
export const LIST = 8;

/**
 * The first `limit` results of `ranked` whose places `placeOf` knows, at most PER_PAGE per page and one
 * per heading, a page's two together (`together`); `missing` is the first document it did not know,
 * where the list had to stop short.
 */
export function pick(ranked: [number, number][], limit: number, placeOf: (doc: number) => Place | undefined): { results: Picked[]; missing?: number } {
  const results: Picked[] = [];
  const perPage = new Map<number, number>();
  const seen = new Set<string>();
  for (const [doc, score] of ranked) {
    if (results.length >= limit) break;
    const place = placeOf(doc);
    if (!place) return { results: together(results, true), missing: doc };
    const { page, pageNumber, anchor, heading, text } = place;
    const url = anchor ? `${page.route}#${anchor}` : page.route;
    if (seen.has(url) || (perPage.get(pageNumber) ?? 0) >= PER_PAGE) continue;
    seen.add(url);
    perPage.set(pageNumber, (perPage.get(pageNumber) ?? 0) + 1);
    results.push({ url, page, heading: heading || undefined, score, text });
  }
  return { results: together(results, false) };
}

/**
 * `results` (best first) with a page's second result moved up to follow its first, within each list
 * of LIST: "Deployment" and "Deployment › After a deploy" side by side, not five rows apart. Only
 * within a list, so that More results adds rows below those shown and moves none. Results `cutShort`
 * (a document's place not known yet) end after the first page with one result in the list still
 * being filled: that page's second may still come, and would push the rows after it down.
 */
function together(results: Picked[], cutShort: boolean): Picked[] {
  const ordered: Picked[] = [];
  for (let from = 0; from < results.length; from += LIST) {
    const byPage = new Map<string, Picked[]>();
    for (const result of results.slice(from, from + LIST)) {
      const found = byPage.get(result.page.route);
      if (found) found.push(result);
      else byPage.set(result.page.route, [result]);
    }
    // The list still to be filled, when the results stopped short.
    const open = cutShort && results.length - from < LIST;
    for (const page of byPage.values()) {
      ordered.push(...page);
      if (open && page.length < PER_PAGE) return ordered;
    }
  }
  return ordered;
}

/**
 * Multiplies the score of each document by `factor(title)` of its page's title (by `TITLE_BLOCK` more
 * for the top of the page). A document's page is looked up in the query's shards only (where their
 * terms' heaviest documents are), never in the chunks, so the first results shown from the shards and
 * the final list rank alike. The documents `named` (an operation's top, on the path the query is)
 * count as the top of a page whose title is the query.
 */
export function boostTitles(scored: Scored, shards: Set<SearchShard>, named: ReadonlySet<number>, factor: (title: string) => number): void {
  const byTitle = new Map<string, number>();
  for (let i = 0; i < scored.docs.length; i++) {
    const doc = scored.docs[i]!;
    if (named.has(doc)) {
      scored.totals[i] = scored.totals[i]! * TITLE_IS_QUERY * TITLE_BLOCK;
      continue;
    }
    for (const { docs = [], pages = [] } of shards) {
      const at = flatIndex(docs, 4, doc);
      const pageAt = at < 0 ? -1 : flatIndex(pages, 5, docs[at + 1] as number);
      if (pageAt < 0) continue;
      const title = pages[pageAt + 2] as string;
      let times = byTitle.get(title);
      if (times === undefined) byTitle.set(title, (times = factor(title)));
      scored.totals[i] = scored.totals[i]! * (times > 1 && docs[at + 2] === '' ? times * TITLE_BLOCK : times);
      break;
    }
  }
}
