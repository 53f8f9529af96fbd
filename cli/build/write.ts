/**
 * Stage 8, write: the build writes into a fresh staging folder beside the output; only a complete
 * build replaces the output, by rename, so a failed build leaves the previous output untouched.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Where this build stages its output: next to `outDir` (same filesystem, so the final rename is atomic per step). */
export function stagingPath(outDir: string): string {
  return join(dirname(outDir), `.${basename(outDir)}.staging-${process.pid}-${Date.now()}`);
}

/** Creates `staging` fresh and empty. */
export function createStaging(staging: string): void {
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
}

/** Replaces `outDir` by `staging`: move the old output aside, move the new in, delete the old. */
export function publishStaging(staging: string, outDir: string): void {
  const previous = `${staging}.previous`;
  const hadOutput = existsSync(outDir);
  if (hadOutput) renameSync(outDir, previous);
  try {
    renameSync(staging, outDir);
  } catch (error) {
    if (hadOutput) renameSync(previous, outDir);
    throw error;
  }
  if (hadOutput) rmSync(previous, { recursive: true, force: true });
}

/** Removes a staging folder after a failed build. */
export function discardStaging(staging: string): void {
  rmSync(staging, { recursive: true, force: true });
}
