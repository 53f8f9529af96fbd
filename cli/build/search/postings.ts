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
