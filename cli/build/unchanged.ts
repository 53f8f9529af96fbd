/**
 * A build with nothing to do, found in a few thousand `stat` calls instead of a pass over the site.
 *
 * After a build the store records two fingerprints beside the output record (`OutputRecord.unchanged`):
 * - the inputs: the generator's version, the resolved config, the git commit the content is at (for
 *   last-update dates), and the size, mtime and ctime of every file and the mtime of every folder below
 *   the content folder, the folders of the OpenAPI specs (a spec's `$ref`s may name files beside it),
 *   the site's `templates/` and `site.config.ts`;
 * - the output: the mtime of every folder the build left files in (a folder's mtime changes when a
 *   file in it is added, removed or renamed) and the size, mtime and ctime of the site-wide files it
 *   writes (manifest, not-found page, search entry…) — what a full no-change build checks too.
 * The next `docs build` computes both again first; when they are the same, the output is the one this
 * build would write, and it stops there: the pages, the cached report and its warnings. A source file
 * changed, added or removed, an output file added, removed or renamed, a site-wide output file edited
 * (by hand, by another tool), a new commit, a config or generator change: the fingerprints differ and
 * the build runs as always (and repairs the output). ctime cannot be set back by tools that restore an mtime, so an edit that keeps size and
 * mtime is still seen.
 *
 * The fingerprint is taken before the content is read, so a file saved during the build makes the
 * next build look again; the store drops the record before a build touches the output, so a killed
 * build never leaves a fingerprint behind.
 */
import { execFileSync } from 'node:child_process';
import { createHash, type Hash } from 'node:crypto';
import { lstatSync, readdirSync, statSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ResolvedConfig } from './config';
import { generatorVersion } from './store';

/** What a build records for the next one to know it has nothing to do. */
export interface UnchangedRecord {
  /** Fingerprint of the inputs when the build started. */
  inputs: string;
  /** Output folders and site-wide files, relative to the output folder (`''` is the folder itself). */
  outputs: string[];
  /** Fingerprint of those paths once the build was done. */
  outputDigest: string;
}

function addStats(hasher: Hash, path: string, stats: Stats): void {
  hasher.update(path).update('\0');
  if (stats.isDirectory()) hasher.update(`d${stats.mtimeMs}\n`);
  else hasher.update(`${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}\n`);
}

/** Adds every file and folder below `dir` (in name order) to the fingerprint; a missing `dir` adds its absence. */
function addTree(hasher: Hash, dir: string): void {
  let stats: Stats;
  try {
    stats = statSync(dir);
  } catch {
    hasher.update(`${dir}\0missing\n`);
    return;
  }
  addStats(hasher, dir, stats);
  if (!stats.isDirectory()) return;
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) addTree(hasher, path);
    else if (entry.isSymbolicLink()) {
      // A link's target may change without the link: both count.
      addStats(hasher, path, lstatSync(path));
      addTree(hasher, path);
    } else {
      try {
        addStats(hasher, path, statSync(path));
      } catch {
        hasher.update(`${path}\0unreadable\n`);
      }
    }
  }
}

/** The commit the content folder's repository is at, or `none` outside one. */
function gitHead(dir: string): string {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'none';
  }
}

/** Fingerprint of everything a build reads. */
export function inputFingerprint(root: string, config: ResolvedConfig, outDir: string): string {
  const hasher = createHash('sha256');
  hasher.update(`${generatorVersion()}\n${outDir}\n${JSON.stringify(config)}\n${gitHead(config.contentDir)}\n`);
  addTree(hasher, join(root, 'site.config.ts'));
  addTree(hasher, join(root, 'templates'));
  addTree(hasher, config.contentDir);
  for (const dir of new Set(config.openapi.map((spec) => dirname(join(root, spec.file))))) addTree(hasher, dir);
  return hasher.digest('hex');
}

/**
 * The output paths to fingerprint: every folder holding a file (a file added, removed or renamed in
 * it changes its mtime) and the files in `written` (the site-wide files a build rewrites whenever their
 * bytes differ). Page and asset files are checked for presence through their folders, as a full
 * no-change build does: their names carry their content's hash or their route.
 */
export function outputPaths(files: Iterable<string>, written: Iterable<string>): string[] {
  const paths = new Set<string>(['', ...written]);
  const dirs = new Set<string>();
  for (const file of files) {
    for (let dir = dirname(file); dir !== '.' && !dirs.has(dir); dir = dirname(dir)) dirs.add(dir);
  }
  return [...paths, ...dirs].sort();
}

/** Fingerprint of `paths` below `outDir`; undefined when one is missing. */
export function outputFingerprint(outDir: string, paths: string[]): string | undefined {
  const hasher = createHash('sha256');
  for (const path of paths) {
    let stats: Stats;
    try {
      stats = statSync(path ? join(outDir, path) : outDir);
    } catch {
      return undefined;
    }
    addStats(hasher, path, stats);
  }
  return hasher.digest('hex');
}
