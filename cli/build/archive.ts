/**
 * `docs build --archive FILE.tar.gz`: the output as a deterministic archive for CI to publish, and a
 * `SHA256SUMS` beside it. The same output always gives the same bytes: entries sorted, owner 0, fixed
 * modes, every time set to `SOURCE_DATE_EPOCH` (or 0), and a gzip header without time or OS.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

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

/** The tar.gz of `dir`, byte for byte the same for the same files. */
export function archiveOf(dir: string, mtime = Number(process.env.SOURCE_DATE_EPOCH ?? 0) || 0): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entriesOf(dir)) {
    if (entry.directory) {
      parts.push(...headersFor(entry.path, 0, '5', mtime));
      continue;
    }
    const bytes = readFileSync(join(dir, entry.path));
    parts.push(...headersFor(entry.path, bytes.length, '0', mtime), bytes, padding(bytes.length));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  const gzip = gzipSync(Buffer.concat(parts), { level: 9 });
  // RFC 1952: bytes 4–7 are the time (Node writes 0), byte 9 the OS; 255 is "unknown" on every platform.
  gzip[9] = 255;
  return gzip;
}

/** Writes the archive of `dir` to `file` and `SHA256SUMS` beside it; returns the archive's SHA-256. */
export function writeArchive(dir: string, file: string): string {
  const archive = archiveOf(dir);
  writeFileSync(file, archive);
  const sha256 = createHash('sha256').update(archive).digest('hex');
  writeFileSync(join(dirname(file), 'SHA256SUMS'), `${sha256}  ${basename(file)}\n`);
  return sha256;
}
