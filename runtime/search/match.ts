/**
 * How a word of a query matches a term of the index (exactly, as a prefix, through a stem, with one
 * typo), and how the matched words are shown: marked in an excerpt of a result's text, its title and
 * its heading. React-free; the engine (engine.ts) scores with the weights.
 */
import type { SearchResult } from './engine';
import type { Picked } from './rank';
import { words } from './text';

/** A piece of an excerpt: text, highlighted when it matched. */
export interface ExcerptPart {
  text: string;
  mark: boolean;
}

/** Weights of the kinds of match. */
export const EXACT = 1;
const TYPING = 0.8;
export const STEM = 0.7;
const PREFIX = 0.6;
const TYPO = 0.45;
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
export function matchWeight(term: string, word: string, wordStems: string[], typing: boolean): number {
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

/** A picked result as the dialog shows it: with its excerpt once its text is in. */
export function present({ text, ...result }: Picked, isMatch: (word: string) => boolean): SearchResult {
  const marked = { title: excerpt(result.page.title, isMatch, Infinity), ...(result.heading ? { heading: excerpt(result.heading, isMatch, Infinity) } : {}) };
  return text === undefined ? { ...result, marked } : { ...result, marked, excerpt: excerpt(text, isMatch) };
}
