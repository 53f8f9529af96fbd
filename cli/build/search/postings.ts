/**
 * The search index's postings as it holds them: typed arrays (a posting is a document number and a
 * weight), and the two things made of a term's postings: its heaviest documents and its JSON text.
 */
import { LEAD } from '../../../runtime/search/format';

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
 * `to`, or those at the given positions (ascending).
 */
export function deltas(doc: Int32Array, weight: Uint8Array, from: number | number[], to = 0): string {
  const count = typeof from === 'number' ? to - from : from.length;
  let json = '[';
  let last = 0;
  for (let i = 0; i < count; i++) {
    const at = typeof from === 'number' ? from + i : from[i]!;
    json += `${i === 0 ? '' : ','}${doc[at]! - last},${weight[at]!}`;
    last = doc[at]!;
  }
  return `${json}]`;
}

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
  constructor(private readonly Kind: { new (length: number): T }) {
    this.array = new Kind(1 << 16);
  }
  push(value: number): void {
    if (this.length === this.array.length) this.array = grown(this.array, Math.ceil(this.array.length * 1.5));
    this.array[this.length++] = value;
  }
  at(index: number): number {
    return this.array[index]!;
  }
  /** Lets the memory go; the array holds nothing after. */
  free(): void {
    this.array = new this.Kind(0);
    this.length = 0;
  }
}
