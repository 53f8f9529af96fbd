/**
 * Stage 8, write: the build writes into a fresh staging folder beside the output; only a complete
 * build replaces the output, by rename, so a failed build leaves the previous output untouched.
 *
 * Replacing a folder wholesale is dangerous when the folder is the wrong one, so before anything is
 * written `checkOutDir` refuses an output folder that is the filesystem root, the home folder, the
 * site or anything holding its sources, or a non-empty folder `docs` did not write (every output holds
 * `OUTPUT_MARKER`). Every path a build writes goes through `insideOutput`.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, parse, relative, resolve, sep } from 'node:path';
import { DocsError, type Diagnostic } from '../util/errors';

/** The file every output folder holds, so a later build can tell its own output from anything else. */
export const OUTPUT_MARKER = '.docs-output.json';

/** The marker's bytes (the same in every build, so a no-change rebuild stays byte-identical). */
export const OUTPUT_MARKER_TEXT = `${JSON.stringify({ generator: 'docs', note: 'This folder is the output of `docs build`, which owns every file in it: a build replaces or removes anything it did not write.' })}\n`;

/** The places an output folder must never be, contain, or be inside of (see `checkOutDir`). */
export interface ProtectedPaths {
  /** The site root (folder of `site.config.ts`). */
  root: string;
  /** Folders and files that hold the site's sources: content, specs, templates, `site.config.ts`. */
  sources: string[];
  /** The content folder: an output inside it would mix built files with pages. */
  contentDir: string;
  /** The OpenAPI specs' folders (the site root aside): their `$ref`s may name any file below them. */
  specDirs?: string[];
}

/** The folders version control keeps a repository's history in. */
const VERSION_CONTROL = new Set(['.git', '.hg', '.svn']);

/** `path` with every existing part resolved through symbolic links (the rest kept as written). */
export function realPath(path: string): string {
  const absolute = resolve(path);
  let existing = absolute;
  const rest: string[] = [];
  while (!existsSync(existing)) {
    const parent = dirname(existing);
    if (parent === existing) break;
    rest.unshift(basename(existing));
    existing = parent;
  }
  try {
    return join(realpathSync(existing), ...rest);
  } catch {
    return absolute;
  }
}

/** Folders at the top of a filesystem that hold the system or other people's files: never an output, --force or not. */
const SYSTEM_FOLDERS = new Set(['bin', 'boot', 'dev', 'etc', 'home', 'lib', 'lib32', 'lib64', 'libx32', 'media', 'mnt', 'opt', 'proc', 'root', 'run', 'sbin', 'snap', 'srv', 'sys', 'tmp', 'usr', 'var', 'users', 'applications', 'library', 'system', 'volumes', 'private', 'cores', 'nix', 'windows', 'program files', 'program files (x86)', 'programdata']);

/**
 * The home folders of the machine's accounts: those `/etc/passwd` names (system accounts' homes, such
 * as /usr/sbin or /var/lib/postgresql, included), and every folder in /home and /Users.
 */
function homeFolders(): string[] {
  const homes = new Set<string>();
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const home = line.split(':')[5];
      if (home && home.startsWith('/') && home !== '/' && !/^\/(nonexistent|dev\/null|var\/empty)\b/.test(home)) homes.add(home);
    }
  } catch {
    // No such file (Windows, macOS accounts live elsewhere): the folders below remain.
  }
  for (const parent of ['/home', '/Users']) {
    try {
      for (const entry of readdirSync(parent, { withFileTypes: true })) if (entry.isDirectory()) homes.add(join(parent, entry.name));
    } catch {
      // Not there.
    }
  }
  return [...homes];
}

/** True when `path` is `folder` or lies below it. */
export function isWithin(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** True when `path` is a symbolic link to nothing; false for anything else, or a path that cannot be looked at. */
function isDanglingLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink() && !existsSync(path);
  } catch {
    // Not there, or a file on the way (ENOTDIR): said by the checks after this one.
    return false;
  }
}

/**
 * Throws a usage error (exit 2) when `outDir` must not be replaced by a build. `force` allows only a
 * non-empty folder that `docs` did not write; nothing allows the others.
 */
export function checkOutDir(outDir: string, paths: ProtectedPaths, force = false): void {
  const out = realPath(outDir);
  const refuse = (message: string, fix: string): never => {
    throw new DocsError('usage', [{ file: outDir, message: `cannot be the output folder: ${message}`, fix }]);
  };
  const fix = 'choose a folder of its own for the output, e.g. --out dist';
  // A symbolic link to nothing: said as such (renaming the build over it failed with "a part of the
  // path is a file"); the folder it names is not made, wherever it points.
  if (isDanglingLink(out)) {
    const target = resolve(dirname(out), readlinkSync(out));
    throw new DocsError('usage', [{ file: outDir, message: `cannot be the output folder: it is a symbolic link to ${target}, which does not exist`, fix: `create that folder first (mkdir -p '${target}'), or pass --out a folder` }]);
  }
  if (dirname(out) === out) refuse('it is the root of the filesystem, and a build replaces its output folder whole', fix);
  const home = realPath(homedir());
  if (isWithin(home, out)) refuse(out === home ? 'it is your home folder, and a build replaces its output folder whole' : `it holds your home folder ${home}, and a build replaces its output folder whole`, fix);
  // Run as root (CI, a container, sudo), every account's home is as much at stake as one's own.
  for (const other of homeFolders().map(realPath)) {
    if (isWithin(other, out)) refuse(out === other ? `it is the home folder of an account on this machine, and a build replaces its output folder whole` : `it holds ${other}, the home folder of an account on this machine, and a build replaces its output folder whole`, fix);
  }
  if (dirname(out) === parse(out).root && SYSTEM_FOLDERS.has(basename(out).toLowerCase())) refuse(`it is the system folder ${out}, and a build replaces its output folder whole`, fix);
  const root = realPath(paths.root);
  if (isWithin(root, out)) refuse(out === root ? 'it is the site root (the folder of site.config.ts), and a build replaces its output folder whole' : `it holds the site ${root}, and a build replaces its output folder whole`, fix);
  for (const source of paths.sources.map(realPath)) {
    if (isWithin(source, out)) refuse(`it holds the site's sources (${source}), and a build replaces its output folder whole`, fix);
  }
  // The build store: read and written while the output is replaced (docs serve's own output lives in it, in `serve`).
  const cache = realPath(join(root, 'node_modules', '.cache', 'docs'));
  if (isWithin(cache, out) || (isWithin(out, cache) && out !== join(cache, 'serve'))) refuse(`${isWithin(cache, out) ? 'it holds' : 'it is inside'} the build's cache ${cache}, which the build reads and writes while it replaces its output`, fix);
  const content = realPath(paths.contentDir);
  if (isWithin(out, content)) refuse(`it is inside the content folder ${content}; built files would be mixed with your pages`, fix);
  for (const dir of (paths.specDirs ?? []).map(realPath)) {
    if (dir !== root && isWithin(out, dir)) refuse(`it is inside ${dir}, the folder of an OpenAPI spec, whose $refs may name the files a build would replace`, fix);
  }
  // A repository's history (its `.git` folder) or a working tree: nothing a build may replace, `--force` or not.
  const metadata = out.split(sep).find((part) => VERSION_CONTROL.has(part));
  if (metadata) refuse(`it is ${basename(out) === metadata ? 'the' : 'inside the'} version control folder ${out.slice(0, out.lastIndexOf(metadata) + metadata.length)}: the repository's history and unpushed work`, fix);
  if (!existsSync(out)) return;
  if (!statSync(out).isDirectory()) refuse('it is a file, not a folder', `remove ${out} or choose another output folder`);
  const entries = readdirSync(out);
  const repository = entries.find((entry) => VERSION_CONTROL.has(entry));
  if (repository) refuse(`it is the working tree of a repository (it holds ${repository}), and a build replaces its output folder whole`, fix);
  if (entries.length > 0 && !entries.includes(OUTPUT_MARKER) && !isEarlierOutput(out) && !force) {
    refuse(
      `it holds ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} (e.g. ${entries.slice(0, 3).join(', ')}) that docs did not write, and a build replaces its output folder whole`,
      'choose an empty or new folder; if this folder really is an old output of docs that may be replaced, pass --force',
    );
  }
}

/**
 * Throws like `checkOutDir` when `outDir` holds one of `sources`: files the site is built from that a
 * build learns of as it reads (the files site.config.ts imports, those a spec's `$ref`s name, the
 * folders the content reaches through a symbolic link, the images its pages show from outside the
 * content folder). Called before the output is touched: `--force` does not replace them either.
 */
export function checkSourcesOutside(outDir: string, sources: Iterable<string>, linkedFrom?: ReadonlyMap<string, string>): void {
  const out = realPath(outDir);
  for (const source of sources) {
    const real = realPath(source);
    if (isWithin(real, out)) {
      // Reached through a symbolic link in the content folder: the link is what to change, named.
      const link = linkedFrom?.get(real);
      if (link) {
        throw new DocsError('usage', [{ file: link, message: `is a symbolic link to ${real === out ? 'the output folder' : `${real}, inside the output folder`} ${outDir}, which a build replaces whole: its pages would be built from the build's own output`, fix: 'delete the link, or point it at a folder outside the output' }]);
      }
      throw new DocsError('usage', [{ file: outDir, message: `cannot be the output folder: it holds ${real}, which the site is built from, and a build replaces its output folder whole`, fix: 'choose a folder of its own for the output, e.g. --out dist' }]);
    }
  }
}

/**
 * `rel` (a path with `/` separators) joined to `outDir`; throws when it would leave `outDir` — the
 * last line of defence behind route validation (`content.ts`), so no input can write elsewhere.
 */
export function insideOutput(outDir: string, rel: string): string {
  const path = resolve(outDir, rel.replace(/^\/+/, ''));
  if (!isWithin(path, outDir) || path === resolve(outDir) || rel.includes('\0')) {
    throw new DocsError('content', [{ file: rel, message: `would be written outside the output folder ${outDir}`, fix: 'give the page a route made of plain path segments (no `..`)' }]);
  }
  return path;
}

/** True when the file `rel` below `dir` holds exactly `bytes` (`rel` checked as `insideOutput` checks it). */
export function sameBytes(dir: string, rel: string, bytes: string | Uint8Array): boolean {
  try {
    return readFileSync(insideOutput(dir, rel)).equals(typeof bytes === 'string' ? Buffer.from(bytes) : bytes);
  } catch {
    return false;
  }
}

/** The text of the file `rel` below `dir` (checked as `insideOutput` checks it); undefined when it cannot be read. */
export function readOutput(dir: string, rel: string): string | undefined {
  try {
    return readFileSync(insideOutput(dir, rel), 'utf8');
  } catch {
    return undefined;
  }
}

/** Writes `rel` below the staging folder, creating its folder. */
export function writeOutput(staging: string, rel: string, bytes: string | Buffer): void {
  const path = insideOutput(staging, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, bytes);
}

/** Error codes of the file system that are the reader's to fix (permissions, space, a file in the way). */
const IO_CODES: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EEXIST: 'a file is in the way',
  ENOENT: 'a folder on the way does not exist, or takes no new folder (a broken symbolic link? a system folder such as /proc?)',
  EISDIR: 'a folder is in the way',
  ELOOP: 'too many symbolic links (a loop)',
  ENAMETOOLONG: 'the path is too long',
  EMFILE: 'too many open files',
  EFBIG: 'the file would pass the size this process may write (a file-size limit, `ulimit -f`)',
};

/** What a file-system error code means in words, with the code (`permission denied (EACCES)`); undefined for a code not listed. */
export function ioReason(code: string | undefined): string | undefined {
  return code && code in IO_CODES ? `${IO_CODES[code]} (${code})` : undefined;
}

/** A file-system failure as a usage error naming the path, or the error itself when it is not one. */
export function ioError(error: unknown, path: string, what: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason = ioReason(code);
  if (!reason) return error;
  const diagnostic: Diagnostic = { file: path, message: `${what}: ${reason}`, fix: code === 'ENOSPC' || code === 'EDQUOT' ? 'free some disk space and build again' : code === 'EFBIG' ? 'raise the file-size limit (ulimit -f) and build again' : 'choose a folder you may write to with --out, or fix its permissions' };
  return new DocsError('usage', [diagnostic]);
}

/**
 * True for the output of a `docs` version from before the marker: `404.html`, `assets/` and a
 * `manifest.json` with docs' own routes and sidebars. Such a folder is replaced without `--force`.
 */
function isEarlierOutput(dir: string): boolean {
  try {
    if (!existsSync(join(dir, '404.html')) || !statSync(join(dir, 'assets')).isDirectory()) return false;
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { routes?: unknown; sidebars?: unknown };
    return Array.isArray(manifest.routes) && typeof manifest.sidebars === 'object' && manifest.sidebars !== null;
  } catch {
    return false;
  }
}
