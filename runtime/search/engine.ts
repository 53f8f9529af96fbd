/**
 * The query side of search: loads the index's entry point, then only the term shards a query's words
 * fall in and the document chunks of the results it shows (format.ts). Each word of the query matches
 * an indexed word
 * - exactly (full weight);
 * - as a prefix: what is being typed (`passb` → `passbolt`), and each of its Dutch and English stems
 *   (`vergaderingen` → `vergader` → `vergadering`, `rotated` → `rotat` → `rotation`);
 * - with one typo (a letter wrong, missing, extra or two swapped) on words of five letters or more,
 *   found among the words that share its first letter (its shard).
 * A result must match every word of the query; when none does, results matching any word are shown.
 */
import type { SearchChunk, SearchMeta, SearchPage, SearchShard } from './format';
import { indexable, shardOf, stems, words } from './text';

/** A piece of an excerpt: text, highlighted when it matched. */
export interface ExcerptPart {
  text: string;
  mark: boolean;
}

/** One result, as the dialog shows it. */
export interface SearchResult {
  /** Route plus the heading's anchor, if any. */
  url: string;
  page: SearchPage;
  /** The heading the match is under. */
  heading?: string;
  excerpt: ExcerptPart[];
  score: number;
}

/** Weights of the kinds of match. */
const EXACT = 1;
const TYPING = 0.8;
const STEM = 0.7;
const PREFIX = 0.6;
const TYPO = 0.45;
/** Results per page at most, so one long page does not fill the list. */
const PER_PAGE = 2;
/**
 * Document chunks requested at once for the first results; those of the others go out once the first
 * is in. Eight requests at once queue on a browser's six connections to a host and delay the first:
 * at 10,000 pages, first results in 71–75 ms instead of 86–93 and the whole list in 107–109 ms instead
 * of 126–128 (medians of 9 fresh pages, the two alternated in one run).
 */
const LEAD_CHUNKS = 3;
/** Posting tails a query fetches at most. */
const MAX_TAILS = 8;

/** A term of the index that a word of the query matches. */
interface Candidate {
  /** Match weight times the term's idf. */
  weight: number;
  /** Its postings: the shard's heaviest, then its tail once fetched. */
  lists: number[][];
  /** File of the term's remaining postings, if it has more. */
  tail?: string;
  /** An exact or stem match (not a mere prefix or typo). */
  exact: boolean;
}

/** True when `a` and `b` differ by exactly one edit: a letter replaced, inserted, removed, or two swapped. */
export function oneEdit(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** How a word of the query matches a term of the index, or 0. */
function matchWeight(term: string, word: string, wordStems: string[], typing: boolean): number {
  if (term === word) return EXACT;
  if (word.length >= 2 && term.startsWith(word)) return typing ? TYPING : PREFIX;
  if (wordStems.some((stem) => term.startsWith(stem))) return STEM;
  if (word.length >= 5 && oneEdit(term, word)) return TYPO;
  return 0;
}

/** The excerpt of `text` around its first matching word, about `width` characters. */
export function excerpt(text: string, matches: (word: string) => boolean, width = 160): ExcerptPart[] {
  const pattern = /[\p{L}\p{N}\p{M}]+/gu;
  const spans: [number, number][] = [];
  for (const found of text.matchAll(pattern)) {
    const folded = words(found[0])[0];
    if (folded && matches(folded)) spans.push([found.index, found.index + found[0].length]);
  }
  let start = 0;
  if (spans.length > 0 && spans[0]![0] > width / 3) {
    start = text.lastIndexOf(' ', spans[0]![0] - Math.floor(width / 3)) + 1;
  }
  let end = Math.min(text.length, start + width);
  if (end < text.length) end = Math.max(text.lastIndexOf(' ', end), spans.find(([from]) => from >= start)?.[1] ?? end);
  const parts: ExcerptPart[] = [];
  let at = start;
  const push = (to: number, mark: boolean): void => {
    if (to > at) parts.push({ text: text.slice(at, to), mark });
    at = to;
  };
  if (start > 0) parts.push({ text: '…', mark: false });
  for (const [from, to] of spans) {
    if (to <= start || from >= end) continue;
    push(Math.max(from, at), false);
    push(Math.min(to, end), true);
  }
  push(end, false);
  if (end < text.length) parts.push({ text: '…', mark: false });
  return parts;
}

/**
 * A two-document index in memory, for `prepare`: enough for a query to pass through every step (stems,
 * prefix, typo, scoring, tails, excerpts).
 */
const SAMPLE: Record<string, unknown> = {
  'index.json': { version: 1, documents: 2, shards: { v: 't-v', r: 't-r' }, split: [], chunks: ['d-0'], chunkSize: 32 } satisfies SearchMeta,
  't-v': { terms: { vergadering: [0, 60, 1, 30], vergaderingen: [1, 50] } } satisfies SearchShard,
  't-r': { terms: { rotation: [0, 40], rotate: [1, 20] }, tails: { rotation: ['p-r', 3] } } satisfies SearchShard,
  'p-r': [1, 10],
  'd-0': {
    pages: { 0: { route: '/a', title: 'Één vergadering', section: 'Wiki' } },
    docs: [
      [0, '', '', 'De vergadering over de rotation van de sleutels.'],
      [0, 'b', 'Vergaderingen', 'Rotate the key after every vergadering.'],
    ],
  } satisfies SearchChunk,
};

let prepared: Promise<void> | undefined;

/** Search over an index at `base` (e.g. `/assets/search/`), loading its files with `fetchJson`. */
export class SearchEngine {
  private meta: Promise<SearchMeta> | undefined;
  /** The entry point once loaded, so a query sends its first requests without waiting a turn. */
  private loaded: SearchMeta | undefined;
  /** Score arrays by query word, one slot per document, kept zeroed between queries (no allocation). */
  private readonly buffers: Float64Array[] = [];
  private readonly shards = new Map<string, Promise<SearchShard>>();
  private readonly chunks = new Map<number, Promise<SearchChunk>>();
  /** The chunks already in, by number: results from them need not wait a turn. */
  private readonly chunkData = new Map<number, SearchChunk>();
  private readonly tails = new Map<string, Promise<number[]>>();

  constructor(
    private readonly fetchJson: (url: string) => Promise<unknown>,
    private readonly base = '/assets/search/',
  ) {}

  /** Loads the entry point (once); call when the dialog opens so the first query waits less. */
  load(): Promise<SearchMeta> {
    this.meta ??= (this.fetchJson(`${this.base}index.json`) as Promise<SearchMeta>).then(
      (meta) => (this.loaded = meta),
      (error: unknown) => {
        this.meta = undefined;
        throw error;
      },
    );
    return this.meta;
  }

  /**
   * Runs a query through an index in memory, so the first real query does not pay for compiling the
   * query code (the stemmers, the Unicode word pattern, the scoring and excerpt loops): about 5 to 15 ms
   * on a first query in Chromium. The dialog calls it when it opens, while the reader starts typing.
   */
  static prepare(): Promise<void> {
    prepared ??= (async () => {
      const sample = new SearchEngine(async (url) => SAMPLE[url.slice(1)], '/');
      await sample.search('vergaderingen rotatoin');
      await sample.search('Één rot');
    })();
    return prepared;
  }

  /** A file of the index, fetched once; a failed fetch is forgotten, so the next query tries again. */
  private cached<K, T>(files: Map<K, Promise<T>>, key: K, file: string): Promise<T> {
    let loaded = files.get(key);
    if (!loaded) {
      loaded = this.fetchJson(this.base + file) as Promise<T>;
      files.set(key, loaded);
      loaded.catch(() => files.delete(key));
    }
    return loaded;
  }

  private shard(meta: SearchMeta, key: string): Promise<SearchShard> {
    const file = meta.shards[key];
    return file ? this.cached(this.shards, key, file) : Promise.resolve({ terms: {} });
  }

  private tail(file: string): Promise<number[]> {
    return this.cached(this.tails, file, file);
  }

  private chunk(meta: SearchMeta, index: number): Promise<SearchChunk> {
    const loading = this.cached(this.chunks, index, meta.chunks[index]!);
    if (!this.chunkData.has(index)) void loading.then((chunk) => this.chunkData.set(index, chunk), () => undefined);
    return loading;
  }

  /**
   * The best results for `query`, at most `limit`. An empty query has none. `onPartial`, when given,
   * receives the first results once, as soon as their document chunks are in and before the chunks of
   * the others: the leading results of the final list, in its order, so a list shown from them only
   * grows.
   */
  async search(query: string, limit = 8, onPartial?: (results: SearchResult[]) => void): Promise<SearchResult[]> {
    const all = [...new Set(words(query))];
    const useful = all.filter(indexable);
    const queryWords = useful.length > 0 ? useful : all;
    if (queryWords.length === 0) return [];
    // Loaded already (the dialog asks for it when it opens): the term shards are requested in this
    // very call, before the keystroke is rendered.
    const meta = this.loaded ?? (await this.load());
    const split = new Set(meta.split);
    const typingLast = !/\s$/.test(query);
    const matched = new Set<string>();
    const wordStems = new Map<string, string[]>();
    // Each word's matching terms, with their postings (the heaviest; a tail joins later if needed).
    const candidates = await Promise.all(
      queryWords.map(async (word, index) => {
        const typing = typingLast && index === queryWords.length - 1;
        const ownStems = stems(word).filter((stem) => stem.length >= 3);
        wordStems.set(word, ownStems);
        const keys = new Set([shardOf(word, split), ...ownStems.map((stem) => shardOf(stem, split))]);
        const found: Candidate[] = [];
        for (const shard of await Promise.all([...keys].map((key) => this.shard(meta, key)))) {
          for (const term in shard.terms) {
            const weight = matchWeight(term, word, ownStems, typing);
            if (weight === 0) continue;
            matched.add(term);
            const list = shard.terms[term]!;
            const tail = shard.tails?.[term];
            const frequency = tail ? tail[1] : list.length / 2;
            const idf = Math.log(1 + (meta.documents - frequency + 0.5) / (frequency + 0.5));
            found.push({ weight: weight * idf, lists: [list], tail: tail?.[0], exact: weight === EXACT || weight === STEM });
          }
        }
        return found;
      }),
    );
    // Per word, each document's best score over the word's terms: a typed array by document number
    // (tens of thousands of postings are counted per query on a large site) and the documents touched.
    const scoreWords = (): { scores: Float64Array; docs: number[] }[] =>
      candidates.map((found, index) => {
        let scores = this.buffers[index];
        if (scores?.length !== meta.documents) scores = this.buffers[index] = new Float64Array(meta.documents);
        const docs: number[] = [];
        for (const { weight, lists } of found) {
          for (const list of lists) {
            for (let i = 0, doc = 0; i < list.length; i += 2) {
              doc += list[i]!;
              const score = (weight * list[i + 1]!) / 40;
              if (scores[doc] === 0) docs.push(doc);
              if (score > scores[doc]!) scores[doc] = score;
            }
          }
        }
        return { scores, docs };
      });
    let perWord: { scores: Float64Array; docs: number[] }[] = [];
    const combine = (every: boolean): Map<number, number> => {
      const total = new Map<number, number>();
      for (const { docs } of every ? perWord.slice(0, 1) : perWord) {
        for (const doc of docs) {
          if (total.has(doc) || (every && perWord.some((other) => other.scores[doc] === 0))) continue;
          total.set(doc, perWord.reduce((sum, other) => sum + other.scores[doc]!, 0));
        }
      }
      return total;
    };
    // Scores documents (all words; any word when `fallback` and none has all), then zeroes the arrays
    // again, all in one turn: no other query can use them in between.
    const rank = (fallback: boolean): Map<number, number> => {
      perWord = scoreWords();
      let found = combine(true);
      if (fallback && found.size === 0 && perWord.length > 1) found = combine(false);
      for (const { scores, docs } of perWord) for (const doc of docs) scores[doc] = 0;
      return found;
    };
    let scored = rank(false);
    // Several words, too few documents with all of them among the heaviest postings: fetch the tails of
    // the words' own terms (not of every prefix match) and count again.
    const tails = candidates.flat().filter((candidate) => candidate.tail && candidate.exact);
    if (scored.size < limit && queryWords.length > 1 && tails.length > 0) {
      await Promise.all(tails.slice(0, MAX_TAILS).map(async (candidate) => candidate.lists.push(await this.tail(candidate.tail!))));
      scored = rank(true);
    } else if (scored.size === 0 && queryWords.length > 1) scored = rank(true);
    const ranked = [...scored].sort((a, b) => b[1] - a[1] || a[0] - b[0]);

    // The best documents, at most PER_PAGE per page and one per heading. The chunks of the first `limit`
    // are fetched LEAD_CHUNKS at once, then the rest as soon as the first is in (not all at once: they
    // would queue on the browser's six connections ahead of nothing); one a skipped result leaves room
    // for is fetched when it is reached.
    const wanted = [...new Set(ranked.slice(0, limit).map(([doc]) => Math.floor(doc / meta.chunkSize)))];
    const lead = wanted.slice(0, LEAD_CHUNKS).map((index) => this.chunk(meta, index));
    const rest = lead[0] && wanted.length > LEAD_CHUNKS ? lead[0].then(() => wanted.slice(LEAD_CHUNKS).map((index) => this.chunk(meta, index)), () => []) : Promise.resolve([]);
    if (!onPartial) await Promise.all([...lead, ...(await rest)]);
    let partialSent = false;
    const results: SearchResult[] = [];
    const perPage = new Map<number, number>();
    const seen = new Set<string>();
    const isMatch = (word: string): boolean => matched.has(word) || queryWords.some((queryWord) => word.startsWith(queryWord) || (wordStems.get(queryWord) ?? []).some((stem) => word.startsWith(stem)));
    for (const [doc, score] of ranked) {
      if (results.length >= limit) break;
      const index = Math.floor(doc / meta.chunkSize);
      // Once, so the list is rendered twice at most: its first results, then all.
      if (onPartial && !this.chunkData.has(index) && results.length > 0 && !partialSent) {
        partialSent = true;
        onPartial([...results]);
      }
      const chunk = this.chunkData.get(index) ?? (await this.chunk(meta, index));
      const [pageNumber, anchor, heading, text] = chunk.docs[doc % meta.chunkSize]!;
      const page = chunk.pages[pageNumber]!;
      const url = anchor ? `${page.route}#${anchor}` : page.route;
      if (seen.has(url) || (perPage.get(pageNumber) ?? 0) >= PER_PAGE) continue;
      seen.add(url);
      perPage.set(pageNumber, (perPage.get(pageNumber) ?? 0) + 1);
      results.push({ url, page, heading: heading || undefined, excerpt: excerpt(text, isMatch), score });
    }
    return results;
  }
}
