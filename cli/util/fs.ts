/** Small file and path helpers shared by the build and the dev server. */
import { mkdirSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * Creates `dir` (and its parents) unless this caller already did: `created` remembers, so writing a
 * thousand pages costs one `mkdir` per folder rather than a `mkdir -p` walk per file.
 */
export function ensureDir(dir: string, created: Set<string>): void {
  if (created.has(dir)) return;
  mkdirSync(dir, { recursive: true });
  created.add(dir);
}

/** `to` relative to `from`, with `/` separators on every platform (paths in routes, URLs and messages). */
export function posixRelative(from: string, to: string): string {
  return relative(from, to).split(sep).join('/');
}

/** Every file below `dir`, as `/`-separated paths relative to it. */
export function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? listFiles(join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`]));
}
