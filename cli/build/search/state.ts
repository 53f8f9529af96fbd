/**
 * What a build's search index keeps of itself for the next build: its documents' postings as it held
 * them (by document: term ids and weighted counts), the terms those ids name, and each page's identity.
 * The next index takes an unchanged page's documents from there instead of reading and decoding its
 * counted terms from the store and interning them again (1.5 s of a one-page edit's 2.3 s index at
 * 10,000 pages).
 *
 * And when every page but the edited ones is where it was (same page and document numbers: a page's
 * documents are numbered with room to grow, numbers.ts `slotsOf`), the postings of every term the
 * edited pages neither had nor have are the previous index's, weight for weight (the average document
 * length the weights use is rounded, see `roundedAverage`): the index then keeps each term shard none
 * of whose terms changed, and each unchanged term's tail under the key it had, without hashing its
 * postings again.
 *
 * The state is a cache file beside the build store (`search-state.bin`), written whole under a
 * temporary name and renamed, so a killed build leaves the old one or the new one. It is safe to use
 * whichever build wrote it: a page is taken from it only under the same identity (route, title,
 * section, method and the key of its search blocks, which hashes its file and the generator), and its
 * shard and tail files are kept only when the output's record of the index names this state (its id).
 *
 * Layout: the five typed arrays (`pageDocs`, `docStart`, `docTerms`, `docTfs`, `lengths`, in the
 * machine's byte order: little-endian wherever Node runs), then a JSON header with their lengths and
 * the strings, then the header's length in bytes (u32) and `MAGIC`.
 */
import { readFileSync, rmSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import type { SearchPage } from '../../../runtime/search/format';
import type { IndexSource } from './index';
import { normOf, weightOf } from './postings';
import { slotsOf } from './numbers';

export interface IndexState {
  /** Said by the record of the index made with this state (`SearchIndexMade.stateId`). */
  id: string;
  /** What it was made with (`IndexSource.salt`): a state of another generator is not used. */
  salt: string;
  /** Terms by id. */
  names: string[];
  /** Each page's identity (`pageIdentity`), in page order. */
  pages: string[];
  /** Each page's first document; one more entry, the number of documents. */
  pageDocs: Int32Array;
  /** Each document's first posting; one more entry, the number of postings. */
  docStart: Int32Array;
  /** Each posting's term id and weighted count (search/terms.ts `WEIGHT`), document by document. */
  docTerms: Int32Array;
  docTfs: Float32Array;
  /** Each document's length in terms, anchor and heading. */
  lengths: Int32Array;
  anchors: string[];
  headings: string[];
  /** The average document length the weights were made with (`roundedAverage`). */
  average: number;
}

/** The state's file in the cache folder. */
export const STATE_FILE = 'search-state.bin';

/** The last four bytes of a state file. */
const MAGIC = 0x31_53_49_44; // 'DIS1', little-endian

/** What a page is known by in a state: its documents depend on nothing else. Undefined for a page without a blocks key. */
export function pageIdentity(page: SearchPage, blocksKey: string | undefined): string | undefined {
  return blocksKey ? JSON.stringify([page.route, page.title, page.section, page.method ?? '', blocksKey]) : undefined;
}

/**
 * The site's average document length as the weights use it: rounded to a step of 1/64 of a doubling
 * (1.1%), so that an edit, which moves the exact average by a few millionths, leaves the weights of
 * every other document as they were. BM25 barely notices the difference of half a step.
 */
export function roundedAverage(total: number, documents: number): number {
  const exact = Math.max(1, total / Math.max(1, documents));
  return 2 ** (Math.round(Math.log2(exact) * 64) / 64);
}

/**
 * Writes `state` to `file` (see the layout above) off the main thread, while the index goes on with its
 * shards; resolves when it is in place. A file that cannot be written is left out: it is a cache.
 */
export async function writeState(file: string, state: IndexState): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    const { pageDocs, docStart, docTerms, docTfs, lengths, ...strings } = state;
    const header = Buffer.from(JSON.stringify({ ...strings, sizes: [pageDocs.length, docStart.length, docTerms.length, docTfs.length, lengths.length] }));
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(header.length, 0);
    trailer.writeUInt32LE(MAGIC, 4);
    const arrays = [pageDocs, docStart, docTerms, docTfs, lengths].map((array) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    await writeFile(temporary, [...arrays, header, trailer]);
    await rename(temporary, file);
  } catch {
    await rm(temporary, { force: true }).catch(() => undefined);
  }
}

/** Removes the state `file` (a build whose index holds too many postings keeps none). */
export function dropState(file: string): void {
  rmSync(file, { force: true });
}

/** The state in `file`, when there is one of this salt, whole and consistent; otherwise undefined. */
export function readState(file: string, salt: string): IndexState | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  if (bytes.length < 8 || bytes.readUInt32LE(bytes.length - 4) !== MAGIC) return undefined;
  const headerLength = bytes.readUInt32LE(bytes.length - 8);
  if (headerLength > bytes.length - 8) return undefined;
  let header: Partial<Omit<IndexState, 'pageDocs' | 'docStart' | 'docTerms' | 'docTfs' | 'lengths'>> & { sizes?: unknown };
  try {
    header = JSON.parse(bytes.toString('utf8', bytes.length - 8 - headerLength, bytes.length - 8)) as typeof header;
  } catch {
    return undefined;
  }
  const { id, names, pages, anchors, headings, average, sizes } = header;
  if (header.salt !== salt || typeof id !== 'string' || typeof average !== 'number' || !strings(names) || !strings(pages) || !strings(anchors) || !strings(headings)) return undefined;
  if (!Array.isArray(sizes) || sizes.length !== 5 || !sizes.every((size) => Number.isInteger(size) && size >= 0)) return undefined;
  const [pageCount, docCount, postingCount, tfCount, lengthCount] = sizes as number[];
  if (4 * (pageCount! + docCount! + postingCount! + tfCount! + lengthCount!) !== bytes.length - 8 - headerLength) return undefined;
  // Views of the file's buffer where their offsets are aligned (a large file has a buffer of its own),
  // copies where not (a small one may be read into a shared pool).
  let at = 0;
  const take = <T extends Int32Array | Float32Array>(Kind: { new (buffer: ArrayBufferLike, offset?: number, length?: number): T }, count: number): T => {
    const part = bytes.subarray(at, at + 4 * count);
    at += 4 * count;
    return part.byteOffset % 4 === 0 ? new Kind(part.buffer, part.byteOffset, count) : new Kind(new Uint8Array(part).buffer);
  };
  const state: IndexState = {
    id,
    salt,
    names,
    pages,
    pageDocs: take(Int32Array, pageCount!),
    docStart: take(Int32Array, docCount!),
    docTerms: take(Int32Array, postingCount!),
    docTfs: take(Float32Array, tfCount!),
    lengths: take(Int32Array, lengthCount!),
    anchors,
    headings,
    average,
  };
  return consistent(state) ? state : undefined;
}

/** True for an array of strings (a state's or a record's, read back from disk). */
export function strings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** True when every count, range and term id of `state` agrees with the others. */
function consistent({ names, pages, pageDocs, docStart, docTerms, docTfs, lengths, anchors, headings }: IndexState): boolean {
  const documents = lengths.length;
  // Each term once: the next index gives the state's terms their ids in order.
  if (new Set(names).size !== names.length) return false;
  if (pageDocs.length !== pages.length + 1 || docStart.length !== documents + 1 || anchors.length !== documents || headings.length !== documents || docTfs.length !== docTerms.length) return false;
  if (pageDocs[0] !== 0 || pageDocs[pages.length] !== documents || docStart[0] !== 0 || docStart[documents] !== docTerms.length) return false;
  // Every page has a document (`indexedBlocks`); postings may be none (a document without terms).
  for (let page = 0; page < pages.length; page++) if (!(pageDocs[page]! < pageDocs[page + 1]!)) return false;
  for (let doc = 0; doc < documents; doc++) if (!(docStart[doc]! <= docStart[doc + 1]!) || lengths[doc]! < 0) return false;
  const terms = names.length;
  for (let i = 0; i < docTerms.length; i++) if (!(docTerms[i]! >= 0 && docTerms[i]! < terms && docTfs[i]! > 0)) return false;
  return true;
}

/**
 * `now` without the terms no document has any more (`df` 0), the others numbered again in order:
 * `now.docTerms` is renumbered in place. Every term still in a document (most edits): as it is.
 */
export function withUsedTerms(now: IndexState, df: Int32Array): IndexState {
  const renumbered = new Int32Array(now.names.length);
  const names: string[] = [];
  now.names.forEach((term, id) => (renumbered[id] = df[id]! > 0 ? names.push(term) - 1 : -1));
  if (names.length === now.names.length) return now;
  const { docTerms } = now;
  for (let at = 0; at < docTerms.length; at++) docTerms[at] = renumbered[docTerms[at]!]!;
  return { ...now, names };
}

/**
 * Hands `source` the index's state `now` (state.ts) for the next build, without the terms no document
 * has any more (`withUsedTerms`: the caller is done with `now`). True when the source took it.
 */
export function keepState(source: Pick<IndexSource, 'keepState'>, now: IndexState, df: Int32Array): boolean {
  if (!source.keepState) return false;
  // A page without a blocks key cannot be known again: a state would serve no build.
  if (now.pages.some((identity) => identity === undefined)) {
    source.keepState(undefined);
    return false;
  }
  source.keepState(withUsedTerms(now, df));
  return true;
}

/** The previous output's index, when its record names the state at hand (`IndexSource.previousIndex`). */
export interface PreviousIndex {
  /** Its entry point's `split` and `sections`. */
  split: string[];
  sections: string[];
  /** Its shard files the output still holds, by key. */
  shards: Map<string, string>;
  /** Its tails the output still holds, by term: key and file. */
  tails: Map<string, [key: string, file: string]>;
  /** Its document chunks' keys, in order (`SearchIndexMade.chunkKeys`), when its record has them. */
  chunkKeys?: string[];
}

/**
 * The terms whose postings may differ from `state`'s (flags by term id), from `now`, the state of the
 * index being made (its term ids those of `state`, and more): in each document of a page not taken from
 * the state, the terms whose weight it had or has differ (an edit that leaves most of a section as it
 * was changes the weight of few of its terms), and every term of a document whose place (anchor,
 * heading, page route, title, section or method) changed, or that the page has now and had not, or
 * had and has not. Undefined when a page taken from the state is not where it was, or a page not taken
 * has a number of documents that takes another number of document numbers (numbers.ts `slotsOf`):
 * then the document numbers after it moved, and no term is known to be unchanged.
 */
export function changedTerms(state: IndexState, now: IndexState, copiedFrom: Int32Array): Uint8Array | undefined {
  const pages = copiedFrom.length;
  if (pages !== state.pages.length || state.average !== now.average) return undefined;
  const changed = new Uint8Array(now.names.length);
  const none = new Map<number, number>();
  for (let page = 0; page < pages; page++) {
    const had = state.pageDocs[page + 1]! - state.pageDocs[page]!;
    const has = now.pageDocs[page + 1]! - now.pageDocs[page]!;
    if (slotsOf(had) !== slotsOf(has)) return undefined;
    if (copiedFrom[page] === page) continue;
    if (copiedFrom[page] !== -1) return undefined;
    const placed = shownAs(state.pages[page]) === shownAs(now.pages[page]);
    for (let index = 0; index < Math.max(had, has); index++) {
      const was = state.pageDocs[page]! + index;
      const is = now.pageDocs[page]! + index;
      const before = index < had ? weights(state, was) : none;
      const after = index < has ? weights(now, is) : none;
      const moved = !placed || index >= had || index >= has || state.anchors[was] !== now.anchors[is] || state.headings[was] !== now.headings[is];
      for (const [id, weight] of after) if (moved || before.get(id) !== weight) changed[id] = 1;
      for (const [id, weight] of before) if (moved || after.get(id) !== weight) changed[id] = 1;
    }
  }
  return changed;
}

/** A page's route, title, section and method from its identity: all of it but the blocks key, a hash, after the last comma. */
function shownAs(identity: string | undefined): string | undefined {
  return identity?.slice(0, identity.lastIndexOf(','));
}

/** What `shownAs` gives of the identity of `page`, whatever its blocks key. */
export function shownOf(page: SearchPage): string {
  return shownAs(pageIdentity(page, 'any'))!;
}

/** The blocks key each page of `state` had, by what the page showed (`shownOf`); an identity that is not one `pageIdentity` makes is left out. */
export function keysOf(state: IndexState): Map<string, string> {
  const keys = new Map<string, string>();
  for (const identity of state.pages) {
    const comma = identity.lastIndexOf(',');
    try {
      const key: unknown = JSON.parse(identity.slice(comma + 1, -1));
      if (comma > 0 && identity.endsWith(']') && typeof key === 'string') keys.set(identity.slice(0, comma), key);
    } catch {
      // A state damaged where its checks do not look: the page's key is then its stored result's.
    }
  }
  return keys;
}

/** The weight of each term in document `doc` of `index`, by term id. */
function weights(index: IndexState, doc: number): Map<number, number> {
  const norm = normOf(index.lengths[doc]!, index.average);
  const found = new Map<number, number>();
  for (let at = index.docStart[doc]!; at < index.docStart[doc + 1]!; at++) found.set(index.docTerms[at]!, weightOf(index.docTfs[at]!, norm));
  return found;
}
