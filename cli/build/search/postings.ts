/**
 * The search index's postings as it holds them: typed arrays (a posting is a document number and a
 * weight), and the two things made of a term's postings: its heaviest documents and its JSON text.
 */
import { LEAD } from '../../../runtime/search/format';

/** BM25's term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;

/** BM25's length normalisation of a document of `length` terms, on a site whose average is `average`. */
export function normOf(length: number, average: number): number {
  return K1 * (1 - B + (B * length) / average);
}

/** A posting's weight, 1–99: the BM25 share of a term counted `tf` times (weighted) in a document of norm `norm`. */
export function weightOf(tf: number, norm: number): number {
  return Math.max(1, Math.min(99, Math.round(((tf * (K1 + 1)) / (tf + norm)) * 40)));
}

/** Adds to `into` the documents of the `LEAD` heaviest postings from `from` to `to` (ties to the earlier). */
export function heaviest(doc: Int32Array, weight: Uint8Array, from: number, to: number, into: Set<number>): void {
  if (to - from <= LEAD) {
    for (let at = from; at < to; at++) into.add(doc[at]!);
    return;
  }
  // Positions by weight, heaviest first: a posting no heavier than the last of a full list is passed.
  const best: number[] = [];
  for (let at = from; at < to; at++) {
    const heavy = weight[at]!;
    if (best.length === LEAD && heavy <= weight[best[LEAD - 1]!]!) continue;
    if (best.length === LEAD) best.pop();
    let i = best.length;
    while (i > 0 && weight[best[i - 1]!]! < heavy) i--;
    best.splice(i, 0, at);
  }
  for (const at of best) into.add(doc[at]!);
}

/**
 * Postings as the format's flat delta-encoded JSON array `[docDelta, weight, …]`: those from `from` to
 * `to`, or those at the given positions (ascending). Made in pieces joined once, not by appending to
 * one string: a common term's tail at 100,000 pages is a million postings, and a string grown by
 * appending is a chain of a million pieces until it is flattened.
 */
export function deltas(doc: Int32Array, weight: Uint8Array, from: number | ArrayLike<number>, to = 0): string {
  const count = typeof from === 'number' ? to - from : from.length;
  const pieces: string[] = [];
  let piece: number[] = [];
  let last = 0;
  for (let i = 0; i < count; i++) {
    const at = typeof from === 'number' ? from + i : from[i]!;
    piece.push(doc[at]! - last, weight[at]!);
    last = doc[at]!;
    if (piece.length === PIECE) {
      pieces.push(piece.join(','));
      piece = [];
    }
  }
  if (piece.length > 0) pieces.push(piece.join(','));
  return `[${pieces.join(',')}]`;
}

/** Numbers in one piece of `deltas`' text. */
const PIECE = 8192;

/** A copy of `array` of `length` elements (zeros past the old end). */
export function grown<T extends Int32Array | Float32Array | Float64Array>(array: T, length: number): T {
  const copy = new (array.constructor as { new (length: number): T })(length);
  copy.set(array);
  return copy;
}

/** Bytes of `gap` as an unsigned LEB128 varint (7 bits a byte). */
function varintLength(gap: number): number {
  return gap < 0x80 ? 1 : gap < 0x4000 ? 2 : gap < 0x200000 ? 3 : gap < 0x10000000 ? 4 : 5;
}

/**
 * The postings' document numbers by term, as the gaps between them in LEB128 varints: a term's
 * documents are placed in increasing order, so most gaps take a byte where an Int32Array took four
 * (70 million postings at 100,000 pages: 280 MB as Int32Array). Each term's bytes are counted while
 * the pages are first read (`count`, in document order), then placed (`place`, in the same order),
 * and read back one term at a time (`docs`).
 */
export class DocRuns {
  /** The last document counted or placed, by term. */
  private last: Int32Array;
  /** Bytes by term while counting; then where each term's next byte goes. */
  private at: Int32Array;
  /** Where each term's bytes start (one more than the terms). */
  private starts = new Int32Array(0);
  private bytes = new Uint8Array(0);
  private scratch = new Int32Array(1024);

  constructor(terms: number) {
    this.last = new Int32Array(terms);
    this.at = new Int32Array(terms);
  }

  /** Makes room for `terms` terms. */
  grow(terms: number): void {
    this.last = grown(this.last, terms);
    this.at = grown(this.at, terms);
  }

  /** Counts a posting of term `id` in document `doc` (documents in increasing order). */
  count(id: number, doc: number): void {
    this.at[id] = this.at[id]! + varintLength(doc - this.last[id]!);
    this.last[id] = doc;
  }

  /** Makes room for the postings counted, for the first `terms` terms; `place` comes next. */
  allocate(terms: number): void {
    this.starts = new Int32Array(terms + 1);
    for (let id = 0; id < terms; id++) this.starts[id + 1] = this.starts[id]! + this.at[id]!;
    this.bytes = new Uint8Array(this.starts[terms]!);
    this.at = this.starts.slice(0, terms);
    this.last.fill(0);
  }

  /** Places a posting of term `id` in document `doc`, in the order they were counted. */
  place(id: number, doc: number): void {
    let gap = doc - this.last[id]!;
    this.last[id] = doc;
    let at = this.at[id]!;
    while (gap >= 0x80) {
      this.bytes[at++] = (gap & 0x7f) | 0x80;
      gap >>>= 7;
    }
    this.bytes[at++] = gap;
    this.at[id] = at;
  }

  /** True when every term's bytes are placed as counted. */
  placed(terms: number): boolean {
    for (let id = 0; id < terms; id++) if (this.at[id] !== this.starts[id + 1]) return false;
    return true;
  }

  /** The `count` documents of term `id`, in order: a view valid until the next call. */
  docs(id: number, count: number): Int32Array {
    if (this.scratch.length < count) this.scratch = new Int32Array(Math.max(count, this.scratch.length * 2));
    let at = this.starts[id]!;
    let doc = 0;
    for (let i = 0; i < count; i++) {
      let gap = 0;
      let shift = 0;
      let byte: number;
      do {
        byte = this.bytes[at++]!;
        gap |= (byte & 0x7f) << shift;
        shift += 7;
      } while (byte & 0x80);
      doc += gap;
      this.scratch[i] = doc;
    }
    return this.scratch.subarray(0, count);
  }
}

/** A typed array that grows as it is pushed to. */
export class Grow<T extends Int32Array | Float32Array> {
  private array: T;
  length = 0;
  constructor(
    private readonly Kind: { new (length: number): T },
    /** The elements it is likely to hold: room for them is made at once. */
    expected = 0,
  ) {
    this.array = new Kind(Math.max(1 << 16, expected));
  }
  push(value: number): void {
    if (this.length === this.array.length) this.array = grown(this.array, Math.ceil(this.array.length * 1.5));
    this.array[this.length++] = value;
  }
  /** Pushes every element of `values`. */
  append(values: ArrayLike<number>): void {
    if (this.length + values.length > this.array.length) this.array = grown(this.array, Math.ceil(Math.max(this.array.length * 1.5, this.length + values.length)));
    this.array.set(values, this.length);
    this.length += values.length;
  }
  at(index: number): number {
    return this.array[index]!;
  }
  /** The elements pushed so far, as a view of the array (valid until the next push). */
  view(): T {
    return this.array.subarray(0, this.length) as T;
  }
  /** Lets the memory go; the array holds nothing after. */
  free(): void {
    this.array = new this.Kind(0);
    this.length = 0;
  }
}

/** Postings by document, as the index holds them (index.ts `indexSteps`): those of the terms of `wanted` (all without it) are placed by term. */
export interface ByDocument {
  starts: ArrayLike<number>;
  terms: Int32Array;
  tfs: Float32Array;
  lengths: Int32Array;
  wanted: Uint8Array | undefined;
}

/** Adds to `df` a document for each of `terms` from `from` to `to` (one term a posting). */
export function countTerms(df: Int32Array, terms: Int32Array, from: number, to: number): void {
  for (let at = from; at < to; at++) df[terms[at]!]!++;
}

/** Counts into `runs` the postings of documents `from` to `to`. */
export function countRuns(runs: DocRuns, { starts, terms, wanted }: Pick<ByDocument, 'starts' | 'terms' | 'wanted'>, from: number, to: number): void {
  for (let doc = from; doc < to; doc++) {
    const end = starts[doc + 1]!;
    for (let at = starts[doc]!; at < end; at++) {
      const id = terms[at]!;
      if (wanted === undefined || wanted[id] === 1) runs.count(id, doc);
    }
  }
}

/** Places the postings of documents `from` to `to`: each document in its term's run, its weight at its term's `fill`. */
export function placeRuns({ runs, fill, weights, average }: { runs: DocRuns; fill: Int32Array; weights: Uint8Array; average: number }, { starts, terms, tfs, lengths, wanted }: ByDocument, from: number, to: number): void {
  for (let doc = from; doc < to; doc++) {
    const norm = normOf(lengths[doc]!, average);
    const end = starts[doc + 1]!;
    for (let at = starts[doc]!; at < end; at++) {
      const id = terms[at]!;
      if (wanted !== undefined && wanted[id] !== 1) continue;
      runs.place(id, doc);
      weights[fill[id]!++] = weightOf(tfs[at]!, norm);
    }
  }
}
