/** Typed errors: library code throws these, only the CLI entry turns them into output and an exit code. */

/** Where a problem is: a file and, when known, a line and column (1-based) or a JSON pointer. */
export interface SourcePlace {
  file: string;
  line?: number;
  column?: number;
  /** JSON pointer inside the file (OpenAPI specs, config keys). */
  pointer?: string;
}

/** One problem found in the input: what, where and the fix. */
export interface Diagnostic extends SourcePlace {
  message: string;
  /** How to fix it, shown on its own line. */
  fix?: string;
}

/** What went wrong, which decides the exit code (see README, "Exit codes"). */
export type ErrorKind = 'content' | 'config' | 'usage';

/** Exit codes of the `docs` command. */
export const EXIT = { ok: 0, content: 1, config: 2, usage: 2, internal: 70 } as const;

/** A build failure carrying every diagnostic of its kind, so all can be printed at once. */
export class DocsError extends Error {
  readonly kind: ErrorKind;
  readonly diagnostics: Diagnostic[];
  /** True when the output was replaced before the error (the archive written after the build failed). */
  readonly afterOutput: boolean;
  /** True when the error came while the output was being updated in place: it holds some of this build's files. */
  readonly partial: boolean;
  /** The warnings the build had found when it failed (the pages' and the links'), reported with the errors. */
  readonly warnings: Diagnostic[];
  constructor(kind: ErrorKind, diagnostics: Diagnostic[], summary?: string, afterOutput = false, partial = false, warnings: Diagnostic[] = []) {
    super(summary ?? diagnostics.map(formatDiagnostic).join('\n'));
    this.name = 'DocsError';
    this.kind = kind;
    this.diagnostics = diagnostics;
    this.afterOutput = afterOutput;
    this.partial = partial;
    this.warnings = warnings;
  }
}

/** Orders diagnostics by file, line and column, so output is the same on every run. */
export function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return [...list].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0)));
}

/** `file:line:col`, or `file#/json/pointer`. */
export function formatPlace(place: SourcePlace): string {
  // A file name may hold a line break or another control character (a terminal would act on an
  // escape sequence): written as an escape, so a diagnostic stays one line that names the file.
  let out = place.file.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) => (char === '\n' ? '\\n' : char === '\t' ? '\\t' : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`));
  if (place.line !== undefined) out += `:${place.line}`;
  if (place.line !== undefined && place.column !== undefined) out += `:${place.column}`;
  if (place.pointer !== undefined) out += `#${place.pointer}`;
  return out;
}

/** One diagnostic as printed: `file:line:col: message` then an indented `fix:` line. */
export function formatDiagnostic(d: Diagnostic): string {
  const head = `${formatPlace(d)}: ${d.message}`;
  return d.fix ? `${head}\n  fix: ${d.fix}` : head;
}

/** Warnings printed for one file before the rest of its warnings are counted instead. */
export const WARNINGS_PER_FILE = 20;

/**
 * The printed lines of `warnings` (`warning file:line: message`, with its fix): at most
 * WARNINGS_PER_FILE of one file, then one line counting the others, so a page with thousands of
 * repeated headings does not bury every other warning (`--json` reports them all).
 */
export function warningLines(warnings: Diagnostic[]): string[] {
  const shown = new Map<string, number>();
  const lines: string[] = [];
  for (const warning of warnings) {
    const count = (shown.get(warning.file) ?? 0) + 1;
    shown.set(warning.file, count);
    if (count <= WARNINGS_PER_FILE) lines.push(`warning ${formatDiagnostic(warning)}`);
  }
  for (const [file, count] of shown) {
    if (count > WARNINGS_PER_FILE) lines.push(`warning ${file}: ${count - WARNINGS_PER_FILE} more warnings in this file, not shown (docs build --json lists every one)`);
  }
  return lines;
}

/** The closest candidate to `word` by edit distance, when close enough to be a likely typo. */
export function suggest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}

/** The lines of a failed build, as the terminal and `docs serve`'s overlay show them. */
export function errorLines(error: unknown): string[] {
  if (error instanceof DocsError) return error.diagnostics.map(formatDiagnostic);
  return [`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`];
}
