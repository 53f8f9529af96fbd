/**
 * `docs build --archive FILE.tar.gz`: the output as a deterministic archive for CI to publish, and a
 * `SHA256SUMS` beside it. The same output always gives the same bytes: entries sorted, owner 0, fixed
 * modes, every time set to `SOURCE_DATE_EPOCH` (or 0), and a gzip header without time or OS.
 *
 * A `SHA256SUMS` already in that folder (a releases folder listing several archives) keeps its other
 * lines: only the archive's own line is replaced or added. A file of that name that is not such a list
 * is refused before the build. Both files are written aside and renamed into place, so a reader (or a
 * build stopped half-way) never sees half an archive.
 */
import { createHash } from 'node:crypto';
import { closeSync, createWriteStream, lstatSync, openSync, readFileSync, readdirSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { basename, dirname, join } from 'node:path';
import { createGzip } from 'node:zlib';
import { DocsError } from '../util/errors';
import { isWithin, realPath } from './write';
import { asidePath, writeWhole } from '../util/fs';
import { onStop } from '../util/stop-signals';

const BLOCK = 512;

/** Every file and folder below `dir`, relative, with `/` separators, sorted byte-wise. */
function entriesOf(dir: string): { path: string; directory: boolean }[] {
  const entries: { path: string; directory: boolean }[] = [];
  const walk = (folder: string, prefix: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = prefix + entry.name;
      if (entry.isDirectory()) {
        entries.push({ path: `${path}/`, directory: true });
        walk(join(folder, entry.name), `${path}/`);
      } else if (entry.isFile()) entries.push({ path, directory: false });
    }
  };
  walk(dir, '');
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** One ustar header block. */
function header(name: string, size: number, type: '0' | '5' | 'x', mtime: number, prefix = ''): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 100, 'utf8');
  block.write(octal(type === '5' ? 0o755 : 0o644, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(mtime, 12), 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write(type, 156, 'ascii');
  block.write('ustar\0', 257, 'ascii');
  block.write('00', 263, 'ascii');
  block.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

function padding(size: number): Buffer {
  return Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
}

/** Header blocks for `path`: plain ustar when it fits, else a PAX record carrying the full path. */
function headersFor(path: string, size: number, type: '0' | '5', mtime: number): Buffer[] {
  if (Buffer.byteLength(path) <= 100) return [header(path, size, type, mtime)];
  const cut = path.lastIndexOf('/', path.length - 2);
  if (cut > 0 && Buffer.byteLength(path.slice(0, cut)) <= 155 && Buffer.byteLength(path.slice(cut + 1)) <= 100) return [header(path.slice(cut + 1), size, type, mtime, path.slice(0, cut))];
  const record = (length: number): string => `${length} path=${path}\n`;
  let length = Buffer.byteLength(record(0));
  while (Buffer.byteLength(record(length)) !== length) length = Buffer.byteLength(record(length));
  const pax = Buffer.from(record(length));
  return [header('PaxHeader', pax.length, 'x', mtime), pax, padding(pax.length), header(path.slice(-100), size, type, mtime)];
}

/**
 * The bytes the tar stream hands gzip at a time, about: not a chunk per header, file and padding (some
 * 150,000 writes through the streams at 10,000 pages), and few enough held at once.
 */
const TAR_CHUNK = 1024 * 1024;

/** The tar stream of `dir`, file by file, in chunks of about `TAR_CHUNK`: byte for byte the same for the same files. */
function* tarOf(dir: string, entries: { path: string; directory: boolean }[], mtime: number, onEntry: () => void): Generator<Buffer> {
  let parts: Buffer[] = [];
  let size = 0;
  const add = (...more: Buffer[]): void => {
    for (const part of more) size += part.length;
    parts.push(...more);
  };
  for (const entry of entries) {
    if (entry.directory) add(...headersFor(entry.path, 0, '5', mtime));
    else {
      const bytes = readFileSync(join(dir, entry.path));
      add(...headersFor(entry.path, bytes.length, '0', mtime), bytes, padding(bytes.length));
    }
    onEntry();
    if (size >= TAR_CHUNK) {
      yield Buffer.concat(parts, size);
      parts = [];
      size = 0;
    }
  }
  add(Buffer.alloc(BLOCK * 2));
  yield Buffer.concat(parts, size);
}

/** Hears how many of the archive's entries (files and folders) are written. */
export type OnArchived = (done: number, total: number) => void;

/**
 * Writes the tar.gz of `dir` to `file` and returns its SHA-256; the same files give the same bytes. The
 * archive is streamed, file by file, through gzip to the disk: it was made whole in memory, then
 * compressed whole, and a 10,000-page output (824 MB) took the build's peak to 1.9 GiB; at 100,000
 * pages (8 GB) the tar alone passed the largest Buffer Node makes (4 GiB): the output was written, the
 * archive could not be.
 */
export async function writeTarGz(dir: string, file: string, onArchived?: OnArchived, mtime = Number(process.env.SOURCE_DATE_EPOCH ?? 0) || 0): Promise<string> {
  const entries = entriesOf(dir);
  let done = 0;
  const hasher = createHash('sha256');
  let first = true;
  const sealed = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      // RFC 1952: bytes 4–7 are the time (Node writes 0), byte 9 the OS; 255 is "unknown" on every
      // platform. The header comes whole in gzip's first chunk.
      if (first) chunk[9] = 255;
      first = false;
      hasher.update(chunk);
      next(null, chunk);
    },
  });
  await pipeline(Readable.from(tarOf(dir, entries, mtime, () => onArchived?.(++done, entries.length))), createGzip({ level: 9, chunkSize: TAR_CHUNK }), sealed, createWriteStream(file));
  return hasher.digest('hex');
}

/** A line of `sha256sum`'s output: the hash, a space, a space (text) or `*` (binary), the file name. */
const CHECKSUM_LINE = /^[0-9a-fA-F]{64} [ *](.+)$/;

/**
 * The lines of the `SHA256SUMS` beside `file` (none when there is none). Throws a usage error, naming
 * the line, when a file of that name is there but is not a checksum list: it is not ours to replace.
 */
export function checksumLines(file: string): string[] {
  const path = join(dirname(file), 'SHA256SUMS');
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (!stats) return [];
  const refuse = (message: string, line?: number): never => {
    throw new DocsError('usage', [{ file: path, line, message: `is beside the archive but ${message}; docs would write its own SHA256SUMS there`, fix: 'move that file away, or write the archive into another folder' }]);
  };
  if (!stats.isFile()) refuse(stats.isSymbolicLink() ? 'is a symbolic link' : 'is not a regular file');
  const lines = readFileSync(path, 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  lines.forEach((line, index) => {
    if (!CHECKSUM_LINE.test(line)) refuse('is not a list of SHA-256 checksums (a line is `<64 hex digits>  <file name>`)', index + 1);
  });
  return lines;
}

/**
 * Writes the archive of `dir` to `file` and its line into the `SHA256SUMS` beside it (other archives'
 * lines kept); returns the archive's SHA-256. The archive is written aside and renamed into place.
 */
export async function writeArchive(dir: string, file: string, onArchived?: OnArchived): Promise<string> {
  const earlier = checksumLines(file);
  const aside = asidePath(file);
  const removeAside = (): void => rmSync(aside, { force: true });
  // Seconds to minutes of writing: Ctrl-C meanwhile leaves no half archive beside the real one.
  const forget = onStop(removeAside);
  let sha256: string;
  try {
    sha256 = await writeTarGz(dir, aside, onArchived);
    renameSync(aside, file);
  } finally {
    forget();
    removeAside();
  }
  const name = basename(file);
  const lines = earlier.filter((line) => CHECKSUM_LINE.exec(line)![1] !== name);
  lines.push(`${sha256}  ${name}`);
  writeWhole(join(dirname(file), 'SHA256SUMS'), `${lines.join('\n')}\n`);
  return sha256;
}

/**
 * Before a build with `--archive`: the archive's folder exists, the archive would not replace a folder,
 * and a `SHA256SUMS` already beside it is a checksum list.
 */
export function checkArchiveFolder(file: string): void {
  const refuse = (message: string, fix: string): never => {
    throw new DocsError('usage', [{ file, message: `cannot be the archive: ${message}`, fix }]);
  };
  const folder = statSync(dirname(file), { throwIfNoEntry: false });
  if (!folder?.isDirectory()) refuse(`its folder ${dirname(file)} ${folder ? 'is a file' : 'does not exist'}`, 'create the folder first, or write the archive beside the site, e.g. --archive portal.tar.gz');
  const existing = statSync(file, { throwIfNoEntry: false });
  if (existing?.isDirectory()) refuse('a folder has that name', 'choose a file name, e.g. --archive portal.tar.gz');
  // A file there is replaced only when it is an archive, as a build writes: a gzip stream (or nothing).
  if (existing && existing.size > 0 && !isGzip(file)) refuse('a file that is no gzip archive has that name, and a build replaces only an archive', 'move or rename that file, or choose another name for the archive');
  // The archive is written after the output is replaced: a folder that takes no file fails now, not then.
  const probe = join(dirname(file), `.${basename(file)}.${process.pid}.probe`);
  try {
    writeFileSync(probe, '');
  } catch (error) {
    refuse(`no file can be written in its folder ${dirname(file)} (${(error as NodeJS.ErrnoException).code ?? String(error)})`, 'choose a folder you may write to, e.g. --archive portal.tar.gz beside the site');
  } finally {
    rmSync(probe, { force: true });
  }
  checksumLines(file);
}

/** True when `file` starts as a gzip stream does (RFC 1952: 1f 8b). */
function isGzip(file: string): boolean {
  try {
    const head = Buffer.alloc(2);
    const fd = openSync(file, 'r');
    try {
      return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
    } finally {
      closeSync(fd);
    }
  } catch {
    // Unreadable: not known to be an archive.
    return false;
  }
}

/** `writeArchive`, its failure (a full disk, say) a usage error naming the file: the output itself is complete. */
export async function writeArchiveOrSay(dir: string, file: string, onArchived?: OnArchived): Promise<string> {
  try {
    return await writeArchive(dir, file, onArchived);
  } catch (error) {
    if (error instanceof DocsError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    throw new DocsError('usage', [{ file, message: `could not be written (${code}); the site itself was built into ${dir}`, fix: code === 'ENOSPC' ? 'free some space on that disk, then build again' : 'choose a folder you may write to, then build again' }], undefined, true);
  }
}

/**
 * After the build: throws a usage error when `--archive FILE` (and the `SHA256SUMS` written beside it)
 * would overwrite a source of the site or land inside the output or content folder.
 */
export function checkArchivePath(file: string, report: { outDir: string; state: { root: string; config: { contentDir: string; openapi: { file: string }[] } } }): void {
  const { root, config } = report.state;
  const refuse = (message: string): never => {
    throw new DocsError('usage', [{ file, message: `cannot be the archive: ${message}`, fix: 'write it beside the site, e.g. --archive portal.tar.gz' }]);
  };
  if (!/\.(?:tar\.gz|tgz)$/.test(file)) refuse('its name must end in .tar.gz or .tgz');
  const sources = [join(root, 'site.config.ts'), join(root, 'package.json'), join(root, 'package-lock.json'), ...config.openapi.map((spec) => join(root, spec.file))].map(realPath);
  for (const path of [file, join(dirname(file), 'SHA256SUMS')].map(realPath)) {
    if (isWithin(path, realPath(config.contentDir))) refuse(`${path} is inside the content folder`);
    if (isWithin(path, report.outDir)) refuse(`${path} is inside the output folder, which the next build replaces`);
    if (sources.includes(path)) refuse(`${path} is a source of the site`);
  }
}
