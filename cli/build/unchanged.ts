/**
 * A build with nothing to do, found in a few thousand `stat` calls instead of a pass over the site.
 *
 * After a build, a small file beside the build store (`unchanged.json` in the cache folder) records
 * the build's report (pages, warnings) and two fingerprints:
 * - the inputs: the generator's version, the resolved config, the git commit the content is at (for
 *   last-update dates), and the size, mtime and ctime of every file and the mtime of every folder below
 *   the content folder and the site's `templates/`, and of `site.config.ts` and the OpenAPI specs;
 * - the other files the specs' `$ref`s named, with their stats when the build read them;
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
 * next build look again. The file is removed before a build touches the output (with the store's
 * output record) and written only after the store has recorded the new output, so a killed build never
 * leaves a fingerprint behind. It is a file of its own, not a store entry, so that a build with nothing
 * to do neither loads nor opens the store (about 0.15 s at 10,000 pages), and reads no git process:
 * the commit comes from the repository's files.
 */
import { execFileSync } from 'node:child_process';
import { createHash, type Hash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync, type Dirent, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { ResolvedConfig } from './config';
import type { Diagnostic } from '../util/errors';
import { generatorVersion } from './version';
import { isPageName } from './file-names';
import { leadsInside, listFiles, publishableRoots, withinFolder } from '../util/fs';

/** What a build records for the next one to know it has nothing to do. */
export interface UnchangedRecord {
  /** The output folder the build wrote. */
  outDir: string;
  /** Pages it built, and its warnings: the report of a build that stops at once. */
  pages: number;
  warnings: Diagnostic[];
  /** Fingerprint of the inputs when the build started. */
  inputs: string;
  /** The files the specs' `$ref`s named, each with its stats (`statsKey`) when it was read. */
  refFiles: [path: string, stats: string][];
  /** Every file and folder of the output, relative to the output folder (`''` is the folder itself). */
  outputs: string[];
  /** Fingerprint of those paths once the build was done. */
  outputDigest: string;
  /** Each path's stats then (`statsKey`, a folder's mtime), in the order of `outputs`: what changed since, a build writes again. */
  outputStamps?: string[];
}

/** The record's file, in the cache folder. */
const RECORD_FILE = 'unchanged.json';

/** The record of the last build into `outDir`, if the cache folder has one. */
export function readUnchanged(cacheDir: string, outDir: string): UnchangedRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(join(cacheDir, RECORD_FILE), 'utf8')) as UnchangedRecord;
    return record.outDir === outDir && Array.isArray(record.outputs) && Array.isArray(record.refFiles) ? record : undefined;
  } catch {
    return undefined;
  }
}

/** Records `record` (whole or not at all: written aside, then renamed into place). */
export function writeUnchanged(cacheDir: string, record: UnchangedRecord): void {
  const path = join(cacheDir, RECORD_FILE);
  try {
    writeFileSync(`${path}.${process.pid}`, JSON.stringify(record));
    renameSync(`${path}.${process.pid}`, path);
  } catch {
    // A cache that cannot be written costs the next build its speed, not this build.
    rmSync(`${path}.${process.pid}`, { force: true });
  }
}

/**
 * Removes the record when it is the record of `outDir`: that folder is about to change, or was written
 * by a build that records none. A record of another folder stays (a build into `--out elsewhere`, or
 * `docs serve`'s own folder, changes nothing of it). `known` is the record of `outDir` when the caller
 * read it already (the file, thousands of stamps, is not parsed again); without it the file is read.
 */
export function dropUnchanged(cacheDir: string, outDir: string, known?: UnchangedRecord): void {
  if (!(known ?? readUnchanged(cacheDir, outDir))) return;
  try {
    rmSync(join(cacheDir, RECORD_FILE), { force: true });
  } catch {
    // A read-only cache folder: no build could have written a record there either.
  }
}

/** The stats that tell a file changed. */
export type FileStamp = Pick<Stats, 'size' | 'mtimeMs' | 'ctimeMs'>;

/** What of a file's stats tells that it changed: size, mtime and ctime. */
export function statsKey(stats: FileStamp): string {
  return `${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

/** Adds `text` to both fingerprints of `walk`. */
function note(walk: TreeWalk, text: string): void {
  walk.hasher.update(text);
  walk.layout?.update(text);
}

/**
 * Adds a path's stats: to the inputs' fingerprint all of them, to the layout's (`TreeListing.layout`)
 * the same but for a folder's mtime and a page file's stats.
 */
function addStats(walk: TreeWalk, path: string, stats: Stats): void {
  const stamp = `${path}\0${stampOf(stats)}\n`;
  walk.hasher.update(stamp);
  if (!walk.layout) return;
  if (stats.isDirectory()) walk.layout.update(`${path}\0folder\n`);
  else if (walk.pages && stats.isFile() && isPageName(basename(path))) walk.layout.update(`${path}\0page\n`);
  else walk.layout.update(stamp);
}

/** True when every file of `files` still has the stats it had when it was read. */
export function sameFiles(files: [path: string, stats: string][]): boolean {
  return files.every(([path, stats]) => {
    try {
      return statsKey(statSync(path)) === stats;
    } catch {
      return false;
    }
  });
}

/**
 * What the fingerprint's walk saw, for the content walk that follows it (sources.ts) to take instead
 * of listing every folder and stating every file a second time (0.2 s at 10,000 pages): each folder's
 * entries, in name order, and the stamp of each regular file (not a symbolic link), by path. Stamps,
 * not `Stats` objects: some 50 bytes a file instead of 450.
 */
export interface TreeListing {
  folders: Map<string, Dirent[]>;
  files: Map<string, FileStamp>;
  /**
   * The fingerprint of the inputs' layout (set by `inputFingerprint`): what the inputs' fingerprint
   * takes but the stats of the content folder's page files (their paths count) and the folders' mtimes.
   * While it is the same, every page file is where it was and every other input as it was: only page
   * files were edited (cli/build/snapshot.ts).
   */
  layout?: string;
}

/** One walk of the fingerprint: what it hashes into, the real folders it entered, where links may lead. */
interface TreeWalk {
  hasher: Hash;
  /** The layout's fingerprint (`TreeListing.layout`), when it is taken. */
  layout?: Hash;
  /** True below the content folder: its page files' stats are left out of `layout`. */
  pages: boolean;
  entered: Set<string>;
  /** The site's repository and its content folder (util/fs.ts `publishableRoots`): a link out of them is not followed. */
  boundary: string[];
  /** The path the system calls take for `path`: relative to the working folder when it holds it (util/fs.ts `withinFolder`). */
  local: (path: string) => string;
}

/**
 * Adds every file and folder below `dir` (in name order) to the fingerprint; a missing `dir` adds its
 * absence. `real` is `dir`'s real path when the caller knows it. Links are followed as the content walk
 * follows them (sources.ts): into the site's repository only, and into a folder once. The walk then
 * refuses what is left out (a loop, a folder reached twice, a link out of the repository), so the
 * fingerprint need only end: two links to a parent folder were 2^40 paths to list.
 */
function addTree(walk: TreeWalk, dir: string, real?: string, listing?: TreeListing): void {
  const { local } = walk;
  let stats: Stats;
  try {
    stats = statSync(local(dir));
  } catch {
    note(walk, `${dir}\0missing\n`);
    return;
  }
  addStats(walk, dir, stats);
  if (!stats.isDirectory()) return;
  let here: string;
  let entries: Dirent[];
  try {
    here = real ?? realpathSync.native(local(dir));
    if (walk.entered.has(here)) {
      note(walk, `${dir}\0entered\n`);
      return;
    }
    walk.entered.add(here);
    entries = readdirSync(local(dir), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    // A folder that cannot be listed (no permission): the content walk reports it, naming it.
    note(walk, `${dir}\0unlisted\n`);
    return;
  }
  listing?.folders.set(dir, entries);
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) addTree(walk, path, join(here, entry.name), listing);
    else if (entry.isSymbolicLink()) {
      // A link's target may change without the link: both count. (The content walk looks at links itself.)
      let target: string;
      try {
        addStats(walk, path, lstatSync(local(path)));
        target = realpathSync.native(local(path));
      } catch {
        note(walk, `${path}\0unreadable\n`);
        continue;
      }
      if (leadsInside(target, walk.boundary)) addTree(walk, path, target);
      else note(walk, `${path}\0outside\n`);
    } else {
      try {
        const file = statSync(local(path));
        addStats(walk, path, file);
        if (listing && file.isFile()) listing.files.set(path, { size: file.size, mtimeMs: file.mtimeMs, ctimeMs: file.ctimeMs });
      } catch {
        note(walk, `${path}\0unreadable\n`);
      }
    }
  }
}

/** The commit the content folder's repository is at, or `none` outside one. */
export function gitHead(dir: string): string {
  return headFromFiles(dir) ?? gitRevParse(dir);
}

function gitRevParse(dir: string): string {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'none';
  }
}

/**
 * The commit from the repository's own files (`.git/HEAD`, then the branch's loose or packed ref), as
 * `git rev-parse HEAD` gives it, without starting a process (about 40 ms); `none` outside a repository;
 * undefined when the layout is one this does not read (an environment that moves the repository, a ref
 * table): `git` is asked then.
 */
function headFromFiles(dir: string): string | undefined {
  if (process.env.GIT_DIR !== undefined || process.env.GIT_WORK_TREE !== undefined) return undefined;
  let gitDir: string | undefined;
  for (let at = resolve(dir); ; at = dirname(at)) {
    const candidate = join(at, '.git');
    if (existsSync(candidate)) {
      gitDir = candidate;
      break;
    }
    if (dirname(at) === at) return 'none';
  }
  try {
    if (statSync(gitDir).isFile()) {
      // A worktree or submodule: `.git` names the real folder.
      const target = /^gitdir: (.+)$/m.exec(readFileSync(gitDir, 'utf8'))?.[1]?.trim();
      if (!target) return undefined;
      gitDir = resolve(dirname(gitDir), target);
    }
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    const ref = /^ref: (refs\/\S+)$/.exec(head)?.[1];
    if (!ref) return /^[0-9a-f]{40,64}$/.test(head) ? head : undefined;
    // Shared refs of a worktree live in the main repository's folder.
    const common = existsSync(join(gitDir, 'commondir')) ? resolve(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim()) : gitDir;
    for (const base of new Set([gitDir, common])) {
      if (existsSync(join(base, ref))) {
        const commit = readFileSync(join(base, ref), 'utf8').trim();
        return /^[0-9a-f]{40,64}$/.test(commit) ? commit : undefined;
      }
    }
    if (existsSync(join(common, 'reftable'))) return undefined;
    const packed = existsSync(join(common, 'packed-refs')) ? readFileSync(join(common, 'packed-refs'), 'utf8') : '';
    const line = packed.split('\n').find((entry) => entry.endsWith(` ${ref}`));
    // A branch with no commit yet: rev-parse fails on it, as it does outside a repository.
    return line ? line.slice(0, line.indexOf(' ')) : 'none';
  } catch {
    return undefined;
  }
}

/**
 * Fingerprint of everything a build reads; `listing` hears what it saw of the content folder, and
 * the fingerprint of the inputs' layout (`TreeListing.layout`).
 */
export function inputFingerprint(root: string, config: ResolvedConfig, outDir: string, listing?: TreeListing): string {
  const hasher = createHash('sha256');
  const layout = listing ? createHash('sha256') : undefined;
  const header = `${generatorVersion()}\n${outDir}\n${JSON.stringify(config)}\n${gitHead(config.contentDir)}\n`;
  hasher.update(header);
  layout?.update(header);
  let boundary: string[];
  try {
    boundary = publishableRoots(config.contentDir);
  } catch {
    // No content folder: the build says so; the fingerprint notes its absence.
    boundary = [resolve(root)];
  }
  // Paths below the site's folder are stated from it (util/fs.ts `withinFolder`): 0.04 s less at 10,000 pages.
  const prefix = `${resolve(root)}/`;
  withinFolder(root, (inside) => {
    const local = (path: string): string => (inside && path.startsWith(prefix) ? path.slice(prefix.length) : path);
    const tree = (path: string, listing?: TreeListing): void => addTree({ hasher, layout, pages: listing !== undefined, entered: new Set(), boundary, local }, path, undefined, listing);
    tree(join(root, 'site.config.ts'));
    tree(join(root, 'templates'));
    tree(config.contentDir, listing);
    for (const spec of config.openapi) tree(join(root, spec.file));
  });
  if (listing && layout) listing.layout = layout.digest('hex');
  return hasher.digest('hex');
}

/** Characters of text `stampOutputs` gathers before it hands them to the hasher. */
const HASHED_AT_ONCE = 65_536;

/** The stats of the output's paths (`stampOf`, `''` for one missing) and their fingerprint, undefined when one is missing. */
export interface OutputStamps {
  digest: string | undefined;
  stamps: string[];
}

/**
 * Stamps `paths` below `outDir`. `kept` gives the stamps already known of paths this build did not
 * touch (checked at its start): they are not stated again (a stat is ~4 µs, 37,500 of them at 10,000
 * pages). A path changed meanwhile by someone else keeps its old stamp in the record: the next build
 * sees the difference and repairs it, which is the safe side.
 */
export function stampOutputs(outDir: string, paths: string[], kept?: ReadonlyMap<string, string>): OutputStamps {
  const hasher = createHash('sha256');
  const stamps: string[] = [];
  let missing = false;
  let text = '';
  withinFolder(outDir, (inside) => {
    for (const path of paths) {
      let stamp = kept?.get(path);
      if (stamp === undefined) {
        try {
          stamp = stampOf(statSync(inside ? path || '.' : join(outDir, path)));
        } catch {
          stamp = '';
        }
      }
      if (stamp === '') missing = true;
      // Hashed some 64 KB at a time: three calls a path into the hasher were 10–20 ms of 37,500 paths.
      text += `${path}\0${stamp}\n`;
      if (text.length >= HASHED_AT_ONCE) {
        hasher.update(text);
        text = '';
      }
      stamps.push(stamp);
    }
  });
  hasher.update(text);
  return { digest: missing ? undefined : hasher.digest('hex'), stamps };
}

/** A path's stats as the fingerprint takes them: a folder's mtime, a file's `statsKey`. */
function stampOf(stats: Stats): string {
  return stats.isDirectory() ? `d${stats.mtimeMs}` : statsKey(stats);
}

/** What the output holds (`presentFiles`). */
export interface PresentOutput {
  files: Set<string>;
  /** The stamps of the last build's paths that are still as it left them, by path. */
  kept: Map<string, string>;
  /**
   * The files the output holds that the last build wrote and someone changed since (edited in place,
   * emptied): not in `files`, so a page that wants one writes it again; one no page wants is removed.
   */
  altered: Set<string>;
}

/**
 * The files `outDir` holds. The last build's list of them (`files`, kept with the store's output
 * record) when the output is as that build left it: the record and the fingerprint are of the same
 * build (`digest`), and every path of the output still has the stats it had then (a file added,
 * removed or renamed changes its folder's mtime, one edited in place its own). Otherwise the output
 * is listed (0.8 s at 10,000 pages), and a file that is not as the last build left it (emptied,
 * edited in place) is left out of `files` (it is written again) and named in `altered` (removed when no
 * page wants it any more). `now` is the stamps of the last build's paths
 * when the caller took them already (start.ts, on a thread of their own).
 */
export function presentFiles(outDir: string, recorded: { files?: string[]; digest?: string } | undefined, last: UnchangedRecord | undefined, now?: OutputStamps): PresentOutput {
  const stamps = last?.outDir === outDir && last.outputStamps?.length === last.outputs.length ? last.outputStamps : undefined;
  const current = last?.outDir === outDir ? (now ?? stampOutputs(outDir, last.outputs)) : undefined;
  const kept = new Map<string, string>();
  if (last && stamps && current) last.outputs.forEach((path, i) => current.stamps[i] === stamps[i] && kept.set(path, stamps[i]!));
  if (recorded?.files && recorded.digest && last && last.outputDigest === recorded.digest && current?.digest === recorded.digest) return { files: new Set(recorded.files), kept, altered: new Set() };
  const files = new Set(listFiles(outDir));
  const altered = new Set<string>();
  last?.outputs.forEach((path) => {
    if (stamps && !kept.has(path) && files.delete(path)) altered.add(path);
  });
  return { files, kept, altered };
}
