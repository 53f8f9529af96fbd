/**
 * Publishing the output (DESIGN §3, step 8): everything is written to a staging folder first, then
 * moved into the output folder, so a failed build leaves the previous output untouched.
 *
 * Where the staging folder is: beside the output folder (same filesystem), and publishing a whole new
 * output is two renames (`publishStaging`). Where the output folder cannot be renamed or its parent
 * takes no new folder — a mount point (a Docker volume, a bind mount, a tmpfs: renaming it is EBUSY),
 * or a folder the user owns under one they may not write (`/srv/www/docs` under a root-owned
 * `/srv/www`) — inside the output folder instead, and publishing moves its files into place and
 * removes the others (`publishInPlace`, as a rebuild does).
 */
import { accessSync, constants, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, posix } from 'node:path';
import { listFiles, makeFolders } from '../util/fs';
import { DocsError } from '../util/errors';
import { ioError, ioReason } from './write';

/** A staging folder's name: `.<output's name>.staging-<pid>-<time>`, `.previous` for an output moved aside. */
const STAGING = /^\.(.+)\.staging-(\d+)-\d+(?:\.previous)?$/;

/** The output folder a staging folder (`stagingPath`) is for, to name it in a message. */
export function outputOfStaging(staging: string): string {
  const name = STAGING.exec(basename(staging))?.[1];
  if (name === undefined) return staging;
  const parent = dirname(staging);
  const beside = join(parent, name);
  // Staged inside the output folder: its parent is the output (see above).
  return basename(parent) === name && !existsSync(beside) ? parent : beside;
}

/** Where this build stages its output (see above). */
export function stagingPath(outDir: string): string {
  return join(stagesInside(outDir) ? outDir : dirname(outDir), `.${basename(outDir)}.staging-${process.pid}-${Date.now()}`);
}

/** True when `outDir` exists and cannot be replaced by a rename: a mount point, or a folder in one the user may not write. */
function stagesInside(outDir: string): boolean {
  let own;
  try {
    own = statSync(outDir);
  } catch {
    // None yet (or a file on its way, ENOTDIR): made beside, where making it says what is wrong.
    return false;
  }
  if (!own.isDirectory()) return false;
  const parent = dirname(outDir);
  try {
    if (parent === outDir || statSync(parent).dev !== own.dev || isMountPoint(outDir)) return true;
    accessSync(parent, constants.W_OK);
    return false;
  } catch {
    // A parent this user may not even look at takes no staging folder either.
    return true;
  }
}

/** True when Linux lists `path` (a real path) as a mount point: a bind mount of the same filesystem has its parent's device. */
function isMountPoint(path: string): boolean {
  let table: string;
  try {
    table = readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return false;
  }
  // The fifth field is the mount point, with space, tab, newline and backslash written as octal escapes.
  const escaped = path.replace(/[ \t\n\\]/g, (char) => `\\${char.charCodeAt(0).toString(8).padStart(3, '0')}`);
  return table.split('\n').some((line) => line.split(' ')[4] === escaped);
}

/** True while a process with this id runs (a build still writing its staging folder). */
export function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What `removeDeadStaging` did. */
export interface DeadStaging {
  removed: string[];
  /** Folders it could not remove (another user's, say), each with the reason. */
  left: { path: string; reason: string }[];
}

/**
 * Removes the staging folders that builds of `outDir` which died (killed, crashed) left beside it or in
 * it. An output moved aside by a build killed before it moved the new one in is moved back instead,
 * when the output folder is missing: the last complete output stays the output.
 */
export function removeDeadStaging(outDir: string): DeadStaging {
  const found: DeadStaging = { removed: [], left: [] };
  for (const folder of [dirname(outDir), outDir]) {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      continue;
    }
    // Moved aside ones last, once the output folder is known to be missing or not.
    for (const name of names.sort((a, b) => Number(a.endsWith('.previous')) - Number(b.endsWith('.previous')))) {
      const match = STAGING.exec(name);
      if (!match || match[1] !== basename(outDir) || isRunning(Number(match[2]))) continue;
      const path = join(folder, name);
      try {
        if (!lstatSync(path).isDirectory()) continue;
        if (name.endsWith('.previous') && folder !== outDir && !existsSync(outDir)) renameSync(path, outDir);
        else rmSync(path, { recursive: true, force: true });
        found.removed.push(path);
      } catch (error) {
        found.left.push({ path, reason: ioReason((error as NodeJS.ErrnoException).code) ?? String(error) });
      }
    }
  }
  return found;
}

/** Creates `staging` fresh and empty; an output folder that cannot be created is a usage error naming it. */
export function createStaging(staging: string, outDir: string): void {
  try {
    rmSync(staging, { recursive: true, force: true });
    makeFolders(staging);
  } catch (error) {
    throw ioError(error, outDir, 'cannot create the output folder');
  }
}

/**
 * Replaces `outDir` by `staging`: moves the old output aside, the new one in, and deletes the old. A
 * staging folder inside the output folder (see above) is published in place instead. Returns the old
 * output when it could not be deleted (another user's files: a build once run with `sudo`), with the
 * reason; the new output is published all the same.
 */
export function publishStaging(staging: string, outDir: string): { path: string; reason: string } | undefined {
  if (dirname(staging) === outDir) {
    const incoming = new Set(listFiles(staging));
    // Every other file goes, but for staging folders (this build's, or another's that is still running).
    const stale = listFiles(outDir).filter((file) => !STAGING.test(file.split('/')[0]!) && !incoming.has(file));
    publishInPlace(staging, outDir, stale);
    return undefined;
  }
  const previous = `${staging}.previous`;
  const hadOutput = existsSync(outDir);
  try {
    if (hadOutput) renameSync(outDir, previous);
  } catch (error) {
    throw ioError(error, outDir, 'cannot replace the output folder');
  }
  try {
    renameSync(staging, outDir);
  } catch (error) {
    if (hadOutput) renameSync(previous, outDir);
    throw ioError(error, outDir, 'cannot replace the output folder');
  }
  if (!hadOutput) return undefined;
  try {
    rmSync(previous, { recursive: true, force: true });
    return undefined;
  } catch (error) {
    return { path: previous, reason: ioReason((error as NodeJS.ErrnoException).code) ?? String(error) };
  }
}

/**
 * Updates `outDir` in place: moves every file of `staging` to its place in `outDir` (creating folders),
 * then removes the `stale` files and the folders they leave empty, and `staging`. New files go in
 * before old ones go, so a reader of the output never follows a link to a file already removed.
 * The caller has made sure no record describes `outDir` while this runs (see `store.ts`): a build
 * killed half-way leaves a mixed output that the next build replaces whole. Returns every path it
 * changed (unchanged.ts stamps only those again).
 */
export function publishInPlace(staging: string, outDir: string, stale: string[], halfway?: () => void): Set<string> {
  /** Every path the publication changed: the files moved in and removed, and each folder holding one (`''`, the output itself). */
  const touched = new Set<string>(['']);
  const touch = (file: string): void => {
    for (let path = file; path !== '.' && !touched.has(path); path = posix.dirname(path)) touched.add(path);
  };
  /** The file being moved in or removed, for the error's message. */
  let current = '';
  try {
    const created = new Set<string>();
    const files = listFiles(staging);
    for (const [i, file] of files.entries()) {
      if (i === Math.floor(files.length / 2)) halfway?.();
      current = file;
      const target = join(outDir, file);
      ownFolder(outDir, posix.dirname(file), created);
      renameSync(join(staging, file), target);
      touch(file);
    }
    const emptied = new Set<string>();
    for (const file of stale) {
      current = file;
      // A link or file that stood where a folder is now needed was replaced by that folder above.
      if (lstatSync(join(outDir, file), { throwIfNoEntry: false })?.isDirectory()) continue;
      rmSync(join(outDir, file), { force: true });
      touch(file);
      for (let dir = posix.dirname(file); dir !== '.'; dir = posix.dirname(dir)) emptied.add(dir);
    }
    // Deepest first; a folder that still holds anything stays.
    for (const dir of [...emptied].sort((a, b) => b.length - a.length)) {
      try {
        rmdirSync(join(outDir, dir));
      } catch {
        // not empty
      }
    }
  } catch (error) {
    const failed = ioError(error, join(outDir, current), 'cannot update the output folder');
    // Some files of this build are in the output already: said so, not "left untouched".
    throw failed instanceof DocsError ? new DocsError(failed.kind, failed.diagnostics, undefined, false, touched.size > 1) : failed;
  }
  rmSync(staging, { recursive: true, force: true });
  return touched;
}

/**
 * Makes `rel` (a folder below `outDir`) a real folder, each of its parts too: a symbolic link found on
 * the way (to a folder elsewhere, put there by hand or by another tool) or a file is removed — the link
 * itself, never what it points at — and a folder made in its place, so that no file of the build is
 * ever written through a link to outside the output folder.
 */
function ownFolder(outDir: string, rel: string, checked: Set<string>): void {
  if (rel === '.' || rel === '' || checked.has(rel)) return;
  ownFolder(outDir, posix.dirname(rel), checked);
  const path = join(outDir, rel);
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (!stats?.isDirectory()) {
    if (stats) rmSync(path, { force: true });
    mkdirSync(path);
  }
  checked.add(rel);
}

/** Removes a staging folder after a failed build. */
export function discardStaging(staging: string): void {
  rmSync(staging, { recursive: true, force: true });
}

/**
 * For the tests only: `DOCS_TEST_CRASH_AT=<point>` kills the build at that point with SIGKILL, as a
 * power cut or an out-of-memory kill would, so the test of killed builds (test/build/killed.test.ts)
 * reaches the moments that matter (moving files into the output, before the store records it) every
 * time rather than by chance.
 */
export function crashPoint(point: 'publish' | 'mid-publish' | 'published'): void {
  if (process.env.DOCS_TEST_CRASH_AT === point) process.kill(process.pid, 'SIGKILL');
}
