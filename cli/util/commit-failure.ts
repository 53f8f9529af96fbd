/**
 * Told apart without loading LMDB (the CLI's process guard needs it before any store is open): the
 * errors of a failed LMDB commit, which LMDB rejects in promises nothing awaits (cli/build/store.ts).
 */

/**
 * True for the errors of a failed LMDB commit: a write's (see store.ts `writeFailure`), or its cause,
 * made in LMDB's writer — `write.js` of its ES module build (the main thread's), or, in the CommonJS
 * build a render thread loads (its code is CommonJS, see cli/util/code-cache.ts), LMDB's status code
 * as thrown in `dist/index.cjs`.
 */
export function isCommitFailure(reason: unknown): boolean {
  if (!(reason instanceof Error)) return false;
  if ((reason as { commitError?: unknown }).commitError instanceof Promise) return true;
  const stack = reason.stack ?? '';
  return /[\\/]lmdb[\\/]write\.js:/.test(stack) || (typeof (reason as { code?: unknown }).code === 'number' && /[\\/]lmdb[\\/]dist[\\/]index\.cjs:/.test(stack));
}
