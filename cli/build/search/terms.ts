/**
 * A page's terms as the index counts them, kept between builds: the index of a site whose pages did
 * not change reads each page's counted terms from the build store instead of tokenizing its text
 * again, which was most of its time (2.3 s of 4 s at 10,000 pages).
 *
 * The counts are a function of the page's search blocks alone, so they are stored by the same key as
 * the blocks (the page's markdown key, cli/build/store.ts). The page's title is not in them: it comes
 * from the content tree, may change while the body does not, and is counted by the index itself.
 */
import type { SearchBlock } from '../../../runtime/search/format';
import { terms, type TermOptions } from '../../../runtime/search/text';

/** Weight of a term by the field it is in: what names a page counts more than what it says. */
export const WEIGHT = { title: 8, api: 10, heading: 4, text: 1 };

/** A page's counted terms (its title aside). */
export interface PageTerms {
  /** The page's distinct terms, in the order they first appear. */
  terms: string[];
  /** Per block: the anchor and text of the heading it follows (`''` for none). */
  anchors: string[];
  headings: string[];
  /**
   * Per block, in order: the number of terms it counts, the number of distinct ones `n`, then `n`
   * pairs (index in `terms`, weighted count), in the order they first appear in the block.
   */
  counts: Int32Array;
}

/** `PageTerms` as the build store keeps it: the numbers as bytes, the terms as one string. */
export interface StoredTerms {
  /** The terms joined by spaces (no term has one: letters and digits, a version's dots, a path's slashes and braces). */
  terms: string;
  anchors: string[];
  headings: string[];
  /**
   * The counts, each in 7-bit groups, low first, the high bit set on all but the last (LEB128): most
   * are below 128 and take one byte instead of four (the store's `terms` 17% smaller at 10,000 pages).
   */
  counts: Uint8Array;
}

/** The blocks a page is indexed by: its own, or one empty block for a page without text. */
export function indexedBlocks(blocks: SearchBlock[]): SearchBlock[] {
  return blocks.length > 0 ? blocks : [{ text: '' }];
}

/** Counts the terms of `blocks` (see `indexedBlocks`) by field. */
export function pageTerms(blocks: SearchBlock[]): PageTerms {
  const ids = new Map<string, number>();
  const names: string[] = [];
  const counts: number[] = [];
  const anchors: string[] = [];
  const headings: string[] = [];
  const weights = new Map<number, number>();
  for (const block of indexedBlocks(blocks)) {
    let length = 0;
    const count = (text: string | undefined, weight: number, options?: TermOptions): void => {
      if (!text) return;
      for (const term of terms(text, options)) {
        let id = ids.get(term);
        if (id === undefined) {
          ids.set(term, (id = names.length));
          names.push(term);
        }
        weights.set(id, (weights.get(id) ?? 0) + weight);
        length++;
      }
    };
    count(block.api, WEIGHT.api, { identifiers: true });
    if (!block.continued) count(block.heading, WEIGHT.heading, { pairs: true });
    count(block.text, WEIGHT.text);
    counts.push(length, weights.size);
    for (const [id, weight] of weights) counts.push(id, weight);
    weights.clear();
    anchors.push(block.anchor ?? '');
    headings.push(block.heading ?? '');
  }
  return { terms: names, anchors, headings, counts: Int32Array.from(counts) };
}

export function storedTerms(page: PageTerms): StoredTerms {
  const { terms: names, anchors, headings, counts } = page;
  const bytes = new Uint8Array(counts.length * 5);
  let at = 0;
  for (let value of counts) {
    // Counts are never negative (`wellFormed`): as unsigned, one is at most five groups.
    value >>>= 0;
    while (value >= 0x80) {
      bytes[at++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    bytes[at++] = value;
  }
  return { terms: names.join(' '), anchors, headings, counts: bytes.slice(0, at) };
}

/**
 * `PageTerms` from the store's form; undefined for an entry that is not one (an older layout, a
 * damaged entry). The bytes are decoded at once: the store may reuse the buffer it read them into.
 */
export function fromStored(stored: StoredTerms | undefined): PageTerms | undefined {
  if (!stored || typeof stored.terms !== 'string' || !Array.isArray(stored.anchors) || !Array.isArray(stored.headings) || !(stored.counts instanceof Uint8Array)) return undefined;
  const counts = decodeCounts(stored.counts);
  if (!counts) return undefined;
  const page = { terms: stored.terms === '' ? [] : stored.terms.split(' '), anchors: stored.anchors, headings: stored.headings, counts };
  return wellFormed(page) ? page : undefined;
}

/** The numbers of `storedTerms`' bytes; undefined when the last is cut short or one passes 31 bits. */
function decodeCounts(bytes: Uint8Array): Int32Array | undefined {
  const counts = new Int32Array(bytes.length);
  let length = 0;
  for (let at = 0; at < bytes.length; ) {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      if (at === bytes.length || shift > 28) return undefined;
      const byte = bytes[at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) break;
    }
    if (value > 0x7fffffff) return undefined;
    counts[length++] = value;
  }
  return counts.slice(0, length);
}

/** True when `page`'s counts are laid out as `PageTerms` says, one run per block, every index a term. */
function wellFormed({ terms: names, anchors, headings, counts }: PageTerms): boolean {
  if (anchors.length === 0 || headings.length !== anchors.length) return false;
  let at = 0;
  for (let block = 0; block < anchors.length; block++) {
    const distinct = counts[at + 1];
    if (distinct === undefined || counts[at]! < 0 || distinct < 0) return false;
    at += 2;
    if (at + 2 * distinct > counts.length) return false;
    for (let pair = 0; pair < distinct; pair++, at += 2) if (!(counts[at]! >= 0 && counts[at]! < names.length && counts[at + 1]! > 0)) return false;
  }
  return at === counts.length;
}
