/**
 * Each regular expression of a grammar compiled once per thread, not once per rule state that lists it.
 *
 * A TextMate grammar scans a line with one scanner per rule state: the patterns that may match there,
 * compiled together by Oniguruma. States share most of their patterns (every state of TypeScript's
 * expressions lists the same few hundred), vscode-textmate compiles up to four variants of each state
 * (with and without `\A` and `\G`), and a state whose end refers to its begin's capture (a heredoc's
 * delimiter) is compiled again for each. Highlighting the portal's 385 blocks compiled 12,447
 * expressions, 1,257 of them different; compiling was half of the highlighter's first pass.
 *
 * Here a state's scanner is a list of one-expression scanners shared by every state that lists the same
 * source, and it finds what Oniguruma's scanner finds: the match that starts first, the earliest
 * listed among those that start at the same place (vscode-oniguruma's `findNextOnigScannerMatch`, by
 * a set search for short lines and by each expression in turn for long ones). Each expression
 * remembers where it last matched in the line and from where it searched: a later search of the same
 * line from a place at or before that match finds it again without a search (a match starts where it
 * starts whatever place the search began at, lookbehind included), unless the expression holds `\G`,
 * which matches where the search begins. A state searched often (HOT) gets a scanner of its own, as
 * shiki made it. The tokens are those of shiki's own scanner
 * (test/unit/cli/build/markdown/shared-patterns.test.ts compares them); the first pass over the
 * portal's blocks took 0.74–0.77 s instead of 1.0–1.13 on one thread without V8's optimizing compiler
 * (as a small site builds).
 *
 * An expression Oniguruma cannot compile is kept, not thrown, by shiki's scanner, and changes what its
 * state finds: on a line shorter than 1,000 bytes nothing at all (an empty match where the search
 * begins when every expression of the state is one), on a longer line what the others find. The same
 * here, each expression's compile error read from the binding.
 *
 * The scanners and strings are those of shiki's Oniguruma engine, whose fields this reads (its WASM
 * binding, the scanner's pointer, the string's id and offsets): an engine without them is used as it is.
 * A one-expression scanner is freed when no state lists its source any more.
 */
import type { RegexEngine } from 'shiki';

type Scanner = ReturnType<RegexEngine['createScanner']>;
type Match = NonNullable<ReturnType<Scanner['findNextMatchSync']>>;

/** What shiki's Oniguruma scanner holds: its WASM binding and its compiled expressions' address. */
interface OnigScanner extends Scanner {
  _onigBinding: {
    findNextOnigScannerMatch(scanner: number, id: number, string: number, length: number, start: number, options: number): number;
    HEAPU32: Uint32Array;
    getLastOnigError(): number;
    UTF8ToString(pointer: number): string;
  };
  _ptr: number;
}

/** Below this many bytes shiki's scanner searches a line with Oniguruma's set search, which an expression that did not compile fails whole. */
const SET_SEARCH_BYTES = 1000;

/**
 * Searches after which a state gets a scanner of its own: Oniguruma's set search, once compiled, is
 * faster than searching each expression (without this, the corpus's blocks took 40% longer once every
 * state was compiled), and a state searched this often repays its compiling. Measured (one thread, first and second
 * pass): the portal's blocks 0.74–0.77 s and 0.28 s (1,000: 0.68–0.73 and 0.31–0.33; never: 0.70 and
 * 0.31; shiki's scanner 1.0–1.13 and 0.25–0.27), 850 pages of the corpus 1.22–1.34 s and 0.75–0.81 s
 * (never: 1.41–1.47 and 1.05; shiki's 1.15–1.27 and 0.73–0.79).
 */
export const HOT = 256;

/** What shiki's Oniguruma string holds: an id of its own, its UTF-8 copy in WASM memory, and the offsets' conversion. */
interface OnigString {
  id: number;
  ptr: number;
  utf8Length: number;
  convertUtf16OffsetToUtf8(offset: number): number;
  convertUtf8OffsetToUtf16(offset: number): number;
  dispose?(): void;
}

/** One source, compiled alone, and what its last search of a line found. */
interface Pattern {
  source: string;
  scanner: OnigScanner;
  /** States that list it: freed at none. */
  users: number;
  /** It holds `\G`: what it finds depends on where the search begins, so nothing is remembered. */
  anchored: boolean;
  /** Oniguruma could not compile it. */
  invalid: boolean;
  /** The string (its id) and the UTF-8 offset its last search began at, and where that found a match (-1: none). */
  string: number;
  from: number;
  found: number;
}

/**
 * `engine` with each state's scanner made of shared one-expression scanners (see the file comment), or
 * `engine` itself when its scanners are not shiki's Oniguruma ones.
 */
export function sharePatterns(engine: RegexEngine): RegexEngine {
  const compiled = messageAfterCompile(engine);
  if (compiled === undefined) return engine;
  const patterns = new Map<string, Pattern>();
  const take = (source: string): Pattern => {
    let pattern = patterns.get(source);
    if (!pattern) {
      const scanner = engine.createScanner([source]) as OnigScanner;
      const invalid = scanner._onigBinding.UTF8ToString(scanner._onigBinding.getLastOnigError()) !== compiled;
      // `\G` as vscode-oniguruma looks for it: a backslash and a G (an escaped backslash before a G too, on the safe side).
      pattern = { source, scanner, users: 0, anchored: source.includes('\\G'), invalid, string: -1, from: -1, found: -1 };
      patterns.set(source, pattern);
    }
    pattern.users++;
    return pattern;
  };
  const release = (pattern: Pattern): void => {
    if (--pattern.users > 0) return;
    patterns.delete(pattern.source);
    pattern.scanner.dispose?.();
  };
  return {
    createString: (text) => engine.createString(text),
    createScanner(sources) {
      const parts: Pattern[] = [];
      try {
        for (const source of sources) parts.push(take(typeof source === 'string' ? source : source.source));
      } catch (error) {
        // The engine could not make one (it throws): those taken so far go as they came.
        parts.forEach(release);
        throw error;
      }
      let disposed = false;
      const valid = parts.filter((part) => !part.invalid);
      /** The list `findFirst`'s index is in when some expression did not compile. */
      const listed = valid.length === parts.length ? undefined : parts;
      const find = (string: OnigString, start: number, options: number): Match | null => {
        if (!listed || string.utf8Length >= SET_SEARCH_BYTES) return findFirst(valid, string, start, options, listed);
        return valid.length === 0 ? { index: 0, captureIndices: [{ start, end: start, length: 0 }] } : null;
      };
      /** Searches so far: at HOT the state gets a scanner of its own. */
      let searches = 0;
      let own: Scanner | undefined;
      const scanner: Scanner = {
        findNextMatchSync(text, start, options) {
          if (++searches === HOT) {
            own = engine.createScanner(parts.map((part) => part.source));
            // From now on the state's searches go straight to it (vscode-textmate looks the method up at each search).
            scanner.findNextMatchSync = own.findNextMatchSync.bind(own);
            return own.findNextMatchSync(text, start, options);
          }
          if (typeof text === 'string') {
            const string = engine.createString(text);
            try {
              return find(string as unknown as OnigString, start, typeof options === 'number' ? options : 0);
            } finally {
              string.dispose?.();
            }
          }
          return find(text as unknown as OnigString, start, typeof options === 'number' ? options : 0);
        },
        dispose() {
          if (disposed) return;
          disposed = true;
          parts.forEach(release);
          own?.dispose?.();
        },
      };
      return scanner;
    },
  };
}

/**
 * The match of `parts` that starts first in `string` from `start` (UTF-16), the earliest listed at a tie;
 * null when none matches. Its index is in `listed` when `parts` are some of those.
 */
function findFirst(parts: Pattern[], string: OnigString, start: number, options: number, listed?: Pattern[]): Match | null {
  const from = string.convertUtf16OffsetToUtf8(start);
  const id = string.id;
  let best = -1;
  let bestAt = 0;
  /** The groups of `best` when its search was this call's (UTF-8 offsets); undefined when it was remembered. */
  let groups: Uint32Array | undefined;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const remembers = options === 0 && !part.anchored;
    let at = part.found;
    if (!(remembers && part.string === id && part.from <= from && (at === -1 || at >= from))) {
      const binding = part.scanner._onigBinding;
      const result = binding.findNextOnigScannerMatch(part.scanner._ptr, id, string.ptr, string.utf8Length, from, options);
      // The result: the expression's index, the number of groups, then each group's start and end (UTF-8).
      const heap = binding.HEAPU32;
      at = result === 0 ? -1 : heap[result / 4 + 2]!;
      if (at !== -1 && (best === -1 || at < bestAt)) groups = heap.slice(result / 4 + 2, result / 4 + 2 + 2 * heap[result / 4 + 1]!);
      if (remembers) {
        part.string = id;
        part.from = from;
        part.found = at;
      }
    } else if (at !== -1 && (best === -1 || at < bestAt)) {
      groups = undefined;
    }
    if (at !== -1 && (best === -1 || at < bestAt)) {
      best = i;
      bestAt = at;
      if (at === from) break;
    }
  }
  if (best === -1) return null;
  const index = listed ? listed.indexOf(parts[best]!) : best;
  // A remembered match's groups: one more search of that expression alone finds the same match.
  if (!groups) return { index, captureIndices: parts[best]!.scanner.findNextMatchSync(string as never, start, options)!.captureIndices };
  const captureIndices = [];
  for (let group = 0; group < groups.length; group += 2) {
    const begin = string.convertUtf8OffsetToUtf16(groups[group]!);
    const end = string.convertUtf8OffsetToUtf16(groups[group + 1]!);
    captureIndices.push({ start: begin, end, length: end - begin });
  }
  return { index, captureIndices };
}

/**
 * What the binding says after an expression compiled (its last error, which a compile that succeeds sets
 * too), when `engine` makes shiki's Oniguruma scanners and strings, whose fields `findFirst` reads;
 * undefined when it does not.
 */
function messageAfterCompile(engine: RegexEngine): string | undefined {
  let scanner: Partial<OnigScanner> | undefined;
  let string: Partial<OnigString> | undefined;
  try {
    scanner = engine.createScanner(['a']) as Partial<OnigScanner>;
    string = engine.createString('a') as unknown as Partial<OnigString>;
    const binding = scanner._onigBinding;
    const fits =
      typeof scanner._ptr === 'number' &&
      typeof binding?.findNextOnigScannerMatch === 'function' &&
      binding.HEAPU32 instanceof Uint32Array &&
      typeof binding.getLastOnigError === 'function' &&
      typeof binding.UTF8ToString === 'function' &&
      typeof string.id === 'number' &&
      typeof string.ptr === 'number' &&
      typeof string.utf8Length === 'number' &&
      typeof string.convertUtf16OffsetToUtf8 === 'function' &&
      typeof string.convertUtf8OffsetToUtf16 === 'function';
    return fits ? binding.UTF8ToString(binding.getLastOnigError()) : undefined;
  } catch {
    return undefined;
  } finally {
    scanner?.dispose?.();
    string?.dispose?.();
  }
}
