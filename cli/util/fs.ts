/** Small file helpers shared by the page jobs and output reuse. */
import { mkdirSync } from 'node:fs';

/**
 * Creates `dir` (and its parents) unless this caller already did: `created` remembers, so writing a
 * thousand pages costs one `mkdir` per folder rather than a `mkdir -p` walk per file.
 */
export function ensureDir(dir: string, created: Set<string>): void {
  if (created.has(dir)) return;
  mkdirSync(dir, { recursive: true });
  created.add(dir);
}
