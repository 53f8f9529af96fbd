/**
 * The query side of search: loads the index's entry point, then only the term shards a query's words
 * fall in and the document chunks of the results it shows (format.ts). Each word of the query matches
 * an indexed word
 * - exactly (full weight);
 * - as a prefix when it is being typed (`passb` → `passbolt`);
 * - through a stem both share, Dutch or English (`vergaderingen` → `vergadering`, `rotated` →
 *   `rotation`, `deploy` → `deployment`; not `do` → `documentation`);
 * - with one typo (a letter wrong, missing, extra or two swapped) on words of five letters or more,
 *   found among the words that share its first letter (its shard); not in numbers.
 * A result must match every word of the query, or two adjacent ones run together (`24 urenloop` finds
 * `24urenloop`, query.ts `queryPairs`); when fewer than a list's worth do, results with some of the
 * words follow, ranked by the share of the query's rarity they have. A question's own words (`how do
 * I`) are never required; a version (`4.2.0`) is one word; a path names its operations.
 */
import type { SearchChunk, SearchMeta, SearchPage, SearchShard } from './format';
import { boostTitles, byScore, flatIndex, pick, TITLE_HAS_QUERY, TITLE_IS_QUERY, type Place, type Scored } from './rank';
import { EXACT, matchWeight, present, STEM, type ExcerptPart, type Matches } from './match';
import { parseQuery } from './query';
import { indexable, pathMatches, shardOf, stems, terms, words } from './text';
import { SAMPLE, STEMMER_WORDS } from './warm-up';

export { excerpt, oneEdit, type ExcerptPart } from './match';

/** One result, as the dialog shows it. */
export interface SearchResult {
  /** Route plus the heading's anchor, if any. */
  url: string;
  page: SearchPage;
  /** The heading the match is under. */
  heading?: string;
  /** The text around the match; absent from a first result shown before its text is in. */
  excerpt?: ExcerptPart[];
  /** The page's title, the heading and an operation's path, with the query's words marked. */
  marked: { title: ExcerptPart[]; heading?: ExcerptPart[]; path?: ExcerptPart[] };
  score: number;
}

/**
 * Document chunks requested at once for the first results; those of the others go out once the first
 * is in. Eight requests at once queue on a browser's six connections to a host and delay the first:
 * at 10,000 pages, first results in 71–75 ms instead of 86–93 and the whole list in 107–109 ms instead
 * of 126–128 (medians of 9 fresh pages, the two alternated in one run).
 */
const LEAD_CHUNKS = 3;
/** What a question word of the query (`how`, `waar`) counts in a result that has it, against a word asked about. */
const ASKED = 0.25;
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

let prepared: Promise<void> | undefined;

/** How long the entry point is taken as current before `load` asks for it again. */
const ENTRY_CHECK_MS = 60_000;

/** Search over an index at `base` (e.g. `/assets/search/`), loading its files with `fetchJson`. */
export class SearchEngine {
  private meta: Promise<SearchMeta> | undefined;
  /** The entry point once loaded, so a query sends its first requests without waiting a turn. */
  private loaded: SearchMeta | undefined;
  /** When the entry point was last loaded (`Date.now()`). */
  private loadedAt = 0;
  /** Score arrays by query word, one slot per document, kept zeroed between queries (no allocation). */
  private readonly buffers: Float64Array[] = [];
  private readonly shards = new Map<string, Promise<SearchShard>>();
  private readonly chunks = new Map<number, Promise<SearchChunk>>();
  /** The chunks already in, by number: results from them need not wait a turn. */
  private readonly chunkData = new Map<number, SearchChunk>();
  private readonly tails = new Map<string, Promise<number[]>>();

  constructor(
    /**
     * Fetches a file of the index. `fresh` is set for the entry point, which keeps its name from build
     * to build: it is checked with the server rather than taken from the browser's cache. A file that
     * is not there any more should reject with an error whose `status` is 404.
     */
    private readonly fetchJson: (url: string, fresh?: boolean) => Promise<unknown>,
    private readonly base = '/assets/search/',
  ) {}

  /**
   * The score array of a query's `index`th word. Made once, and written through when made: a new array
   * of a megabyte is memory the system has not mapped yet, and a first query that scattered its
   * postings over it would wait for some 270 page faults (4 ms in Chromium at 10,000 pages).
   */
  private buffer(index: number, documents: number): Float64Array {
    let scores = this.buffers[index];
    if (scores?.length !== documents) scores = this.buffers[index] = new Float64Array(documents).fill(0);
    return scores;
  }

  /**
   * Loads the entry point; call when the dialog opens so the first query waits less. Loaded over a
   * minute ago, it is asked for again (an answer the browser revalidates, mostly a 304): a site built
   * again since then (a deploy, a save in `docs serve`) has other files, and the files of the old
   * index are let go.
   */
  load(): Promise<SearchMeta> {
    // Queries meanwhile use the index in hand (`loaded`).
    if (this.loaded && Date.now() - this.loadedAt > ENTRY_CHECK_MS) {
      this.meta = undefined;
      this.loadedAt = Date.now();
    }
    this.meta ??= (this.fetchJson(`${this.base}index.json`, true) as Promise<SearchMeta>).then(
      (meta) => {
        if (this.loaded && JSON.stringify(meta) !== JSON.stringify(this.loaded)) this.forgetFiles();
        // The arrays of a query of two words, ready before the reader has typed.
        this.buffer(0, meta.documents);
        this.buffer(1, meta.documents);
        this.loadedAt = Date.now();
        return (this.loaded = meta);
      },
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
      for (const word of STEMMER_WORDS) stems(word);
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
    try {
      return await this.searchOnce(query, limit, onPartial);
    } catch (error) {
      // A file the entry point names is gone: the site was built again (a deploy, a save in `docs
      // serve`) since the entry was loaded. The query runs again on the new index, once.
      if ((error as { status?: unknown }).status !== 404) throw error;
      this.meta = this.loaded = undefined;
      this.forgetFiles();
      return this.searchOnce(query, limit, onPartial);
    }
  }

  /** Lets go of every file of the index but its entry point. */
  private forgetFiles(): void {
    for (const files of [this.shards, this.chunks, this.chunkData, this.tails]) files.clear();
  }

  private async searchOnce(query: string, limit: number, onPartial?: (results: SearchResult[]) => void): Promise<SearchResult[]> {
    const parsed = parseQuery(query);
    if (!parsed) return [];
    const { queryWords, asked, path, pairs, sought, pairsFrom, pairsOf, typing, typingLast, typed } = parsed;
    // Loaded already (the dialog asks for it when it opens): the term shards are requested in this
    // very call, before the keystroke is rendered.
    const meta = this.loaded ?? (await this.load());
    const split = new Set(meta.split);
    const matched = new Set<string>();
    const wordStems = new Map<string, string[]>();
    /** The shards of this query, for where their heaviest documents are (`SearchShard.docs`). */
    const queryShards = new Set<SearchShard>();
    // Each word's matching terms, with their postings (the heaviest; a tail joins later if needed).
    const candidates = await Promise.all(
      sought.map(async (word, index) => {
        const optional = index >= queryWords.length;
        // The word's own shard is asked for before its stems are made (a stemmer's first run on a
        // page compiles its patterns: milliseconds the request need not wait).
        void this.shard(meta, shardOf(word, split)).catch(() => undefined);
        const ownStems = optional ? [] : stems(word).filter((stem) => stem.length >= 3);
        wordStems.set(word, ownStems);
        const keys = new Set([shardOf(word, split), ...ownStems.map((stem) => shardOf(stem, split))]);
        const found: (Candidate & { idf: number; match: number })[] = [];
        /** The rarity of the word itself, when the index has it. */
        let ownIdf = Infinity;
        for (const shard of await Promise.all([...keys].map((key) => this.shard(meta, key)))) {
          queryShards.add(shard);
          for (const term in shard.terms) {
            let match = matchWeight(term, word, ownStems, typing[index]!);
            // A path pasted with its parameters' values (`/teams/42/laps`) is its operation's path.
            if (word === path && match !== EXACT && pathMatches(term, path)) match = EXACT;
            if (match === 0) continue;
            matched.add(term);
            const list = shard.terms[term]!;
            // Own keys only: a term such as `constructor` or `toString` is no tail of Object.prototype's.
            const tail = shard.tails && Object.prototype.hasOwnProperty.call(shard.tails, term) ? shard.tails[term] : undefined;
            const frequency = tail ? tail[1] : list.length / 2;
            const idf = Math.log(1 + (meta.documents - frequency + 0.5) / (frequency + 0.5));
            if (match === EXACT) ownIdf = idf;
            found.push({ weight: 0, idf, match, lists: [list], tail: tail?.[0], exact: match === EXACT || match === STEM });
          }
        }
        // A longer word that starts with this one (`apilogin`, a heading's two words run together), a
        // stem or a typo is rarer than the word, but never counts more than the word itself would.
        // A question's own words (`how`, `do`) tell little about the page asked for.
        const worth = asked.includes(word) ? ASKED : 1;
        for (const candidate of found) candidate.weight = worth * candidate.match * Math.min(candidate.idf, ownIdf);
        return found;
      }),
    );
    // Per word, each document's best score over the word's terms: a typed array by document number
    // (tens of thousands of postings are counted per query on a large site) and the documents touched.
    const scoreWords = (): { scores: Float64Array; docs: number[] }[] =>
      candidates.map((found, index) => {
        const scores = this.buffer(index, meta.documents);
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
    /**
     * What each word of the query weighs in a document's share of it: the rarity of its rarest term
     * (of a word the index lacks, which only a pair may stand in for, that of a word in one document).
     */
    const rarest = Math.log(1 + (meta.documents + 0.5) / 1.5);
    const rarity = candidates.slice(0, queryWords.length).map((found) => found.reduce((most, { idf }) => Math.max(most, idf), 0) || rarest);
    const queryRarity = rarity.reduce((sum, weight) => sum + weight, 0);
    // The documents with every word (or with any, `every` false), each with the sum of its words' scores;
    // one with some of the words times the share of the query's rarity it has, squared (a page with
    // `deploy` and `backend` of "how do I deploy the backend" before one with `how` and `do`).
    // Plain loops, no closure per document: this runs on a first query before the code is optimised.
    const combine = (every: boolean): Scored => {
      const found: Scored = { docs: [], totals: [] };
      // Every document with all the words has the first (or a pair holding it).
      const sources = every ? [0, ...pairsOf[0]!] : [...perWord.keys()];
      // A word's documents are each listed once; those of several words are met again.
      const counted = sources.length === 1 ? undefined : new Set<number>();
      for (const source of sources) {
        for (const doc of perWord[source]!.docs) {
          if (counted?.has(doc)) continue;
          counted?.add(doc);
          let total = 0;
          let has = 0;
          for (let word = 0; word < pairsFrom; word++) {
            let score = perWord[word]!.scores[doc]!;
            // A word of the query counts what a pair holding it scores in the document, when that is more
            // (a page with `24urenloop` has `urenloop` of `24 urenloop`, one with `login` has `log` of
            // `log in`); a pair never adds to the word.
            if (word < queryWords.length) {
              for (const at of pairsOf[word]!) score = Math.max(score, perWord[at]!.scores[doc]!);
              // Every word of the query, that is: a joined word it also seeks only adds.
              if (score === 0 && every) {
                total = 0;
                break;
              }
              if (score > 0) has += rarity[word]!;
            }
            total += score;
          }
          // Not a document with none of the words, only the question's.
          if (total === 0 || has === 0) continue;
          const share = every || queryRarity === 0 ? 1 : has / queryRarity;
          found.docs.push(doc);
          found.totals.push(total * share * share);
        }
      }
      return found;
    };
    // Scores documents (all words; with `fill`, also those with some of them when fewer than `limit`
    // have all), then zeroes the arrays again, all in one turn: no other query can use them in between.
    const rank = (fill: boolean): Scored => {
      perWord = scoreWords();
      let found = combine(true);
      if (fill && found.docs.length < limit && queryWords.length > 1) found = combine(false);
      for (const { scores, docs } of perWord) for (const doc of docs) scores[doc] = 0;
      return found;
    };
    let scored = rank(false);
    // Several words, too few documents with all of them among the heaviest postings: fetch the tails of
    // the words' own terms (not of every prefix match) and count again, then fill the list with
    // documents that have some of the words.
    if (scored.docs.length < limit && queryWords.length > 1) {
      const tails = candidates.flat().filter((candidate) => candidate.tail && candidate.exact);
      await Promise.all(tails.slice(0, MAX_TAILS).map(async (candidate) => candidate.lists.push(await this.tail(candidate.tail!))));
      scored = rank(true);
    }
    // A page named by the query first: its title's terms (pairs run together too, as the index has them).
    // The operations on the path the query is: its whole path term, matched exactly.
    const onPath = new Set<number>();
    for (const { match, lists } of path ? candidates[sought.indexOf(path)]! : []) {
      if (match !== EXACT) continue;
      for (const list of lists) for (let i = 0, doc = 0; i < list.length; i += 2) onPath.add((doc += list[i]!));
    }
    boostTitles(scored, queryShards, onPath, (title) => {
      const titleTerms = terms(title, { pairs: true });
      const named = queryWords.every(
        (word, index) =>
          titleTerms.some((term) => matchWeight(term, word, wordStems.get(word) ?? [], word === typed) > 0) ||
          pairs.some((pair) => pair.covers.includes(index) && titleTerms.some((term) => matchWeight(term, pair.term, [], typingLast && pair.last) > 0)),
      );
      if (!named) return 1;
      const own = words(title).filter(indexable);
      // The title's words, in any order, or run together as the query runs them (`Deep linking`, `deeplinking`).
      const isQuery = (own.length === queryWords.length && own.every((word) => queryWords.includes(word))) || own.join('') === queryWords.join('');
      return isQuery ? TITLE_IS_QUERY : TITLE_HAS_QUERY;
    });
    const ranked = byScore(scored, meta.documents);

    // The best documents, at most PER_PAGE per page and one per heading (`pick`).
    // A common word is never marked: `the` being typed finds `theme`, and `the` itself matched nothing.
    // A word that starts with a number matched by its letters too (`24urenloop` for `urenloop`, text.ts `terms`).
    const isMatch: Matches = (word, inParts) =>
      matched.has(word) ||
      matched.has(word.replace(/^\d+(?=\p{L})/u, '')) ||
      (!inParts && indexable(word) && queryWords.some((queryWord) => matchWeight(word, queryWord, wordStems.get(queryWord) ?? [], queryWord === typed) >= STEM));
    const fromChunk = (doc: number): Place | undefined => {
      const chunk = this.chunkData.get(Math.floor(doc / meta.chunkSize));
      const found = chunk?.docs[doc % meta.chunkSize];
      return found ? { page: chunk.pages[found[0]]!, pageNumber: found[0], anchor: found[1], heading: found[2], text: found[3] } : undefined;
    };
    // The first results, shown as soon as the shards are in (their places are there, the excerpts follow).
    if (onPartial) {
      const fromShards = (doc: number): Place | undefined => {
        const found = fromChunk(doc);
        if (found) return found;
        for (const { docs = [], pages = [] } of queryShards) {
          const at = flatIndex(docs, 4, doc);
          const pageAt = at < 0 ? -1 : flatIndex(pages, 5, docs[at + 1] as number);
          if (pageAt < 0) continue;
          const [pageNumber, route, title, section, method] = pages.slice(pageAt, pageAt + 5) as [number, string, string, number, string];
          return { page: { route, title, section: meta.sections[section] ?? '', ...(method ? { method } : {}) }, pageNumber, anchor: docs[at + 2] as string, heading: docs[at + 3] as string };
        }
        return undefined;
      };
      const first = pick(ranked, limit, fromShards);
      if (first.results.length > 0 && (first.missing !== undefined || first.results.some((result) => result.text === undefined))) onPartial(first.results.map((result) => present(result, isMatch)));
    }
    // Then the chunks, for the excerpts (after the first results: each request costs the page a
    // millisecond of its own). Those of the first `limit` are fetched LEAD_CHUNKS at once, then the
    // rest as soon as the first is in (not all at once: they would queue on the browser's six
    // connections ahead of nothing); one a skipped result leaves room for is fetched when it is reached.
    const wanted = [...new Set(ranked.slice(0, limit).map(([doc]) => Math.floor(doc / meta.chunkSize)))];
    const lead = wanted.slice(0, LEAD_CHUNKS).map((index) => this.chunk(meta, index));
    if (lead[0] && wanted.length > LEAD_CHUNKS) void lead[0].then(() => wanted.slice(LEAD_CHUNKS).forEach((index) => this.chunk(meta, index)), () => undefined);
    for (;;) {
      const { results, missing } = pick(ranked, limit, fromChunk);
      if (missing === undefined) return results.map((result) => present(result, isMatch));
      await this.chunk(meta, Math.floor(missing / meta.chunkSize));
      // A chunk that came without the document would have this loop ask for it for ever.
      if (!fromChunk(missing)) throw new Error('the search index is incomplete (rebuild the site)');
    }
  }
}
