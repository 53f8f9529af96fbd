/**
 * How a word of a query matches a term of the index (exactly, as a prefix, through a stem, with one
 * typo), and how the matched words are shown: marked in an excerpt of a result's text, its title and
 * its heading. React-free; the engine (engine.ts) scores with the weights.
 */
import type { SearchResult } from './engine';
import type { Picked } from './rank';
import { stems, words } from './text';

/** A piece of an excerpt: text, highlighted when it matched. */
export interface ExcerptPart {
  text: string;
  mark: boolean;
}

/** Weights of the kinds of match. */
export const EXACT = 1;
const TYPING = 0.8;
export const STEM = 0.7;
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

/**
 * How a word of the query matches a term of the index, or 0. Only the word being typed matches any
 * longer word it starts (`passb` → `passbolt`); a word typed whole matches a longer one only when they
 * share a stem (`deploy` → `deployment`, `rotating` → `rotation`, `batteries` → `battery`), not one it
 * merely starts (`do` → `documentation`, `4` → `40`): a question typed as a sentence would otherwise
 * match its small words almost anywhere.
 */
export function matchWeight(term: string, word: string, wordStems: string[], typing: boolean): number {
  if (term === word) return EXACT;
  if (typing && word.length >= 2 && term.startsWith(word)) return TYPING;
  if ((term.startsWith(word) || wordStems.some((stem) => term.startsWith(stem))) && sharesStem(term, word, wordStems)) return STEM;
  // No typo in a number: `4.2.0` is not `4.0.0` or `4.20`.
  if (word.length >= 5 && oneEdit(term, word) && /\p{L}/u.test(word)) return TYPO;
  return 0;
}

/** True when a term of the index, or one of its stems, is the query's word or one of the word's stems. */
function sharesStem(term: string, word: string, wordStems: string[]): boolean {
  return [term, ...stems(term)].some((form) => form === word || wordStems.includes(form));
}

/** Words of a text, each with where it is and its folded form. */
interface Token {
  from: number;
  to: number;
  word: string;
}

/** Words written in parts that a query may match whole: `node.js`, `QUAD_API_URL` (any number of parts). */
export const JOINER = /^[_.-]$/;
/** Two words a title or heading may run together (`Deep linking`, `Log-in`), as the index does. */
const PAIR_GAP = /^[^\p{L}\p{N}\n]{1,2}$/u;

/**
 * Whether a folded word matches the query. `inParts`: the word is parts of the text run together, which
 * should match only as a word of the index the query found (not as the start of a word being typed:
 * `a picture` is no match for `api`).
 */
export type Matches = (word: string, inParts?: boolean) => boolean;

/**
 * Where the words of `text` that match are. A word the text writes in parts and the query matched
 * whole (`Deep linking` for `deeplinking`, `node.js` for `nodejs`) is one span over its parts, when no
 * part matches on its own (`deep` marks `Deep`, not `Deep linking`).
 */
function matchedSpans(text: string, matches: Matches): [number, number][] {
  const tokens: Token[] = [];
  for (const found of text.matchAll(/[\p{L}\p{N}\p{M}]+/gu)) tokens.push({ from: found.index, to: found.index + found[0].length, word: words(found[0]).join('') });
  const alone = tokens.map(({ word }) => word !== '' && matches(word));
  const spans: [number, number][] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (alone[i]) {
      spans.push([tokens[i]!.from, tokens[i]!.to]);
      continue;
    }
    let joined = tokens[i]!.word;
    for (let j = i + 1; j < tokens.length && !alone[j]; j++) {
      const gap = text.slice(tokens[j - 1]!.to, tokens[j]!.from);
      if (!JOINER.test(gap) && !(j === i + 1 && PAIR_GAP.test(gap))) break;
      joined += tokens[j]!.word;
      // Numbers joined by dots are a term with their dots (text.ts `joinedTerms`).
      const written = text.slice(tokens[i]!.from, tokens[j]!.to);
      if (matches(joined, true) || (/^[\d.]+$/.test(written) && matches(written, true))) {
        spans.push([tokens[i]!.from, tokens[j]!.to]);
        i = j;
        break;
      }
    }
  }
  return spans;
}

/**
 * The excerpt of `text` about `width` characters long, around the matching words: where most of the
 * query's different words are within its width (`QUAD_API_URL` whole rather than `quad` in a host
 * name two lines before; `Passbolt` with `rotate`), the first such place.
 */
export function excerpt(text: string, matches: Matches, width = 160): ExcerptPart[] {
  const spans = matchedSpans(text, matches);
  // A third of the width before the first word shown, or less when that shows more of the words.
  let [lead, around] = [Math.floor(width / 3), undefined as { at: number; words: number } | undefined];
  for (const before of Number.isFinite(width) ? [lead, SHORT_LEAD] : []) {
    const found = bestSpan(text, spans, before, width - before);
    if (found && found.words > (around?.words ?? 0)) [lead, around] = [before, found];
  }
  let start = 0;
  if (around !== undefined && around.at > lead) start = text.lastIndexOf(' ', around.at - lead) + 1;
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

/** Characters an excerpt shows before its first matched word at least. */
const SHORT_LEAD = 12;

/**
 * Where the matched span is that has the most different words (folded) from `before` characters ahead
 * of it to `after` past it, and their number; the first of those. Undefined without spans.
 */
function bestSpan(text: string, spans: [number, number][], before: number, after: number): { at: number; words: number } | undefined {
  let best: { at: number; words: number } | undefined;
  for (const [from] of spans) {
    const seen = new Set<string>();
    for (const [start, end] of spans) if (start >= from - before && end <= from + after) seen.add(words(text.slice(start, end)).join(''));
    if (seen.size > (best?.words ?? 0)) best = { at: from, words: seen.size };
  }
  return best;
}

/** A picked result as the dialog shows it: with its excerpt once its text is in. */
export function present({ text, ...result }: Picked, isMatch: Matches): SearchResult {
  const { title, path } = result.page;
  const marked = { title: excerpt(title, isMatch, Infinity), ...(result.heading ? { heading: excerpt(result.heading, isMatch, Infinity) } : {}), ...(path ? { path: excerpt(path, isMatch, Infinity) } : {}) };
  return text === undefined ? { ...result, marked } : { ...result, marked, excerpt: excerpt(text, isMatch) };
}
