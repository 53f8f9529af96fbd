/**
 * The search index on disk: the contract between `docs build` (cli/build/search/) and the browser's
 * query engine (engine.ts). Types only.
 *
 * The index is split so that a query downloads only what it needs:
 * - `assets/search/index.json` (fixed name, small): the shard and chunk file names;
 * - term shards `assets/search/t-<key>.<hash>.json`: every term starting with `<key>` (its first
 *   letter, or first two when the letter's shard would be large) with its heaviest postings, and
 *   posting tails `p-<term>.<hash>.json` for the commonest terms;
 * - document chunks `assets/search/d-<n>.<hash>.json`: the blocks' text and their pages' titles, so
 *   a query fetches only the chunks of the results it shows.
 * A shard also says where its terms' heaviest documents are (page, heading): a query shows its first
 * results from the shards alone, one round trip after the keystroke, and their excerpts once the
 * chunks are in.
 */

/** A few sentences of a page under one heading, as `docs build` extracts them. */
export interface SearchBlock {
  /** Anchor of the heading the block follows; none before the first heading. */
  anchor?: string;
  /** Text of that heading. */
  heading?: string;
  /** The block's text (about 400 characters at most). */
  text: string;
  /** On an API page's first block: method, path and operationId, e.g. `POST /api/login userLogin`. */
  api?: string;
  /** On that block too: the operation's path alone, e.g. `/api/login`, which its results show. */
  path?: string;
  /** True for a block that continues the one before under the same heading. */
  continued?: boolean;
}

/** `assets/search/index.json`. */
export interface SearchMeta {
  version: 1;
  /**
   * Number of document numbers in the index: its documents (blocks), numbered page after page, each
   * page's run of numbers rounded up to leave it room to grow (a number without a document is null in
   * its chunk and in no posting), so that an edit adding a section to one page leaves the numbers, and
   * the files, of every other page's documents as they were.
   */
  documents: number;
  /** Term shard file (below `assets/search/`) by key. */
  shards: Record<string, string>;
  /** First letters whose shard is split by the second letter. */
  split: string[];
  /** Document chunk files, in order; chunk `i` holds documents `i * chunkSize` onwards. */
  chunks: string[];
  chunkSize: number;
  /** The sections pages sit in (`SearchPage.section`), those of `SearchShard.pages` by index. */
  sections: string[];
}

/**
 * A term shard. For each term its postings as one flat array, `[docDelta, weight, docDelta, weight, …]`
 * with document numbers ascending (each the difference from the one before) and weights 1–99: the
 * term's BM25 share of the document, fields weighted (title and API fields above headings above text).
 * A term in more than `TIER` documents keeps only its `TIER` heaviest postings here; the rest are in a
 * file of their own (`tails`), fetched only when a query of several words needs them. A one-word query
 * is exact with the heaviest postings alone.
 */
export interface SearchShard {
  terms: Record<string, number[]>;
  /** For a term with more postings: `[file below assets/search/, number of documents in all]`. */
  tails?: Record<string, [string, number]>;
  /**
   * The documents a query is likeliest to show first: for each term its `LEAD` heaviest (all of them
   * for a term in fewer), flat, four values a document, `[document, page number, anchor, heading, …]`,
   * documents ascending. Flat arrays, not objects keyed by number: V8's JSON parser takes an object
   * with hundreds of numeric keys ten times slower (13–18 ms for a 140 KB shard, cold, against 1.5–2).
   */
  docs?: (number | string)[];
  /**
   * The pages of `docs`, flat, five values a page, `[page number, route, title, section, method, …]`,
   * pages ascending; the section is its index in `SearchMeta.sections`, the method `''` when none.
   */
  pages?: (number | string)[];
}

/**
 * Documents per term whose place a shard carries (`SearchShard.docs`): a page of results and then
 * some, for the results two headings of one page or a second heading of a page push further down.
 */
export const LEAD = 12;

/** Postings a shard keeps per term before the rest goes to the term's tail file. */
export const TIER = 256;

/** A page, as the results show it. */
export interface SearchPage {
  route: string;
  title: string;
  /** Where the page sits: the navbar section and its categories, e.g. `Backend › Onboarding`. */
  section: string;
  /** Method badge of an API operation page, e.g. `post`. */
  method?: string;
  /**
   * An API operation's path, e.g. `/api/login`, shown under its title. Only in a chunk's pages (a
   * shard's pages leave it out): a result shows it with its excerpt.
   */
  path?: string;
}

/** A document chunk: its documents in order, and the pages they belong to. */
export interface SearchChunk {
  /** Pages by number, only those the chunk's documents belong to. */
  pages: Record<string, SearchPage>;
  /** `[page number, anchor, heading, text]` per document number; null for a number without a document. */
  docs: ([number, string, string, string] | null)[];
}
