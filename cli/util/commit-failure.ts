/**
 * Told apart without loading LMDB (the CLI's process guard needs it before any store is open): the
 * errors of a failed LMDB commit, which LMDB rejects in promises nothing awaits (cli/build/store.ts).
 */

/** True for the errors of a failed LMDB commit: a write's (see store.ts `writeFailure`), or its cause, made in LMDB's writer. */
export function isCommitFailure(reason: unknown): boolean {
  return reason instanceof Error && ((reason as { commitError?: unknown }).commitError instanceof Promise || /[\\/]lmdb[\\/]write\.js:/.test(reason.stack ?? ''));
}
