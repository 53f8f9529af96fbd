/**
 * The build store's large values (each page's markdown result, search blocks and counted terms) in
 * append-only pack files beside the store, read with `pread`; LMDB keeps only where each one is.
 *
 * Why: a page of a file that a process has mapped counts in its memory (RSS) once touched, and LMDB
 * reads through its map. A build touches every page's values (the render threads write them, the
 * search index reads them back), and the kernel maps the cached pages around each one it faults in:
 * at 100,000 pages the store was 1.3 GB of the cold build's 2.8 GB peak. Pages read with `pread` stay
 * in the kernel's cache, which is not the process's memory. What stays in LMDB is small: the places,
 * and the `output` record.
 *
 * A record is written before its place is put in LMDB, so a place committed names bytes written; a
 * build killed between the two leaves bytes no place names, which `collectPacks` removes later. Each
 * thread appends to a file of its own (`<random>.pack` in `packs/`), and a new one every `PACK_BYTES`.
 * A record starts with its key, checked on every read: a place whose file is gone, cut short or
 * rewritten reads as no entry (the page is rendered again), never as another page's value.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Database, RootDatabase } from 'lmdb';
import { Packr } from 'msgpackr';

/** The folder of the packs, beside the store's file. */
export const PACKS_DIR = 'packs';

/** A writer starts a new file past this size: a file is removed whole, once none of its records is used. */
const PACK_BYTES = 64 * 1024 ** 2;

/** `DPK1`: the first four bytes of every record. */
const MAGIC = 0x44504b31;

/** Magic, record length, key length. */
const HEADER_BYTES = 10;

/**
 * What a reader reads ahead once it reads records in the order they were written: a build reads the
 * docs and results of every page in the order the last build wrote them, 20,000 records of a few
 * kilobytes at 10,000 pages, which one `pread` each made 50 ms slower than reading them through LMDB's map.
 */
const AHEAD_BYTES = 64 * 1024;

/** A pack open for reading: its descriptor, where the last record read ended, and the bytes read ahead from there. */
interface Reader {
  fd: number;
  next: number;
  ahead?: { offset: number; bytes: Buffer };
}

/**
 * The `length` bytes at `offset` of `reader`'s pack; undefined past its end. A record that starts
 * where the last one read ended is read with the bytes after it, up to `AHEAD_BYTES`, and the records
 * that follow are taken from those. A pack's bytes never change once written (a writer only appends),
 * so what was read ahead stays true.
 */
function recordAt(reader: Reader, offset: number, length: number): Buffer | undefined {
  const sequential = offset === reader.next;
  reader.next = offset + length;
  let { ahead } = reader;
  if (!ahead || offset < ahead.offset || offset + length > ahead.offset + ahead.bytes.length) {
    if (!sequential) {
      const record = Buffer.allocUnsafe(length);
      return readSync(reader.fd, record, 0, length, offset) === length ? record : undefined;
    }
    const bytes = Buffer.allocUnsafe(Math.max(length, AHEAD_BYTES));
    reader.ahead = ahead = { offset, bytes: bytes.subarray(0, readSync(reader.fd, bytes, 0, bytes.length, offset)) };
    if (ahead.bytes.length < length) return undefined;
  }
  return ahead.bytes.subarray(offset - ahead.offset, offset - ahead.offset + length);
}

/** Where a value is: its pack's name, the record's offset and length. */
export type Place = [pack: string, offset: number, length: number];

/** Records, not maps: the same shapes repeated within a value (blocks, links) are written once. */
const packr = new Packr({ useRecords: true, moreTypes: true });

/**
 * Plain msgpack maps, for the values every rebuild reads for every page (store.ts `pages`, `reads`):
 * a record's shapes are written into each value and compiled into a reader again for each one read,
 * which cost 140 ms of the 160 ms of decoding 10,000 kept docs (store.ts `PLAIN`).
 */
const plainPackr = new Packr({ useRecords: false, moreTypes: true });

/** How a packed database encodes its values. */
export interface PackedOptions {
  /** Plain msgpack maps instead of records (`plainPackr`). @default false */
  plain?: boolean;
}

/** The subset of LMDB's `Database` the build uses, over values kept in packs. */
export interface PackedDb<V> {
  get(key: string): V | undefined;
  /** The value's msgpack bytes as the pack holds them; undefined as `get` would be. */
  getBinary(key: string): Buffer | undefined;
  /** Writes the value to this thread's pack now, and its place to LMDB with the thread's next commit. */
  put(key: string, value: V): Promise<boolean>;
  remove(key: string): Promise<boolean>;
  doesExist(key: string): boolean;
  getKeys(): Iterable<string>;
  getKeysCount(): number;
  getStats(): object;
}

/** The packs of one store, as one thread opens them. */
export interface Packs {
  db<V>(places: Database<Place, string>, options?: PackedOptions): PackedDb<V>;
  /** Every database of places `db` was given, with its options: what `collectPacks` counts as used. */
  dbs(): PlaceDb[];
  /** The value of `key` at `place` (decoded as `options` says); undefined when the record there is not `key`'s (or is gone). */
  value(key: string, place: Place | undefined, options?: PackedOptions): unknown;
  /** The first write that failed (a full disk), if any: the store reports it when it flushes. */
  failure(): Error | undefined;
  close(): void;
}

export function openPacks(dir: string): Packs {
  const readers = new Map<string, Reader>();
  const opened = new Map<Database<Place, string>, PackedOptions>();
  let writer: { name: string; fd: number; offset: number } | undefined;
  let failed: Error | undefined;

  const append = (key: string, value: unknown, options: PackedOptions): Place => {
    const keyBytes = Buffer.from(key);
    const body = (options.plain ? plainPackr : packr).pack(value);
    const record = Buffer.allocUnsafe(HEADER_BYTES + keyBytes.length + body.length);
    record.writeUInt32BE(MAGIC, 0);
    record.writeUInt32BE(record.length, 4);
    record.writeUInt16BE(keyBytes.length, 8);
    keyBytes.copy(record, HEADER_BYTES);
    body.copy(record, HEADER_BYTES + keyBytes.length);
    if (!writer || writer.offset >= PACK_BYTES) {
      if (writer) closeSync(writer.fd);
      writer = undefined;
      mkdirSync(dir, { recursive: true });
      const name = `${randomBytes(6).toString('hex')}.pack`;
      writer = { name, fd: openSync(join(dir, name), 'wx'), offset: 0 };
    }
    const place: Place = [writer.name, writer.offset, record.length];
    let written = 0;
    while (written < record.length) written += writeSync(writer.fd, record, written, record.length - written);
    writer.offset += record.length;
    return place;
  };

  /** The msgpack bytes of `key`'s value at `place`; undefined when the record there is not `key`'s (or is gone). */
  const bytes = (key: string, place: Place | undefined): Buffer | undefined => {
    if (!Array.isArray(place) || place.length !== 3) return undefined;
    const [name, offset, length] = place;
    if (typeof name !== 'string' || !/^[0-9a-f]{12}\.pack$/.test(name) || !(length > HEADER_BYTES)) return undefined;
    try {
      let reader = readers.get(name);
      if (reader === undefined) readers.set(name, (reader = { fd: openSync(join(dir, name), 'r'), next: -1 }));
      const record = recordAt(reader, offset, length);
      if (record === undefined) return undefined;
      const keyLength = record.readUInt16BE(8);
      if (record.readUInt32BE(0) !== MAGIC || record.readUInt32BE(4) !== length || record.toString('utf8', HEADER_BYTES, HEADER_BYTES + keyLength) !== key) return undefined;
      return record.subarray(HEADER_BYTES + keyLength);
    } catch {
      // A pack removed or damaged since its place was read: no entry.
      return undefined;
    }
  };

  const read = (key: string, place: Place | undefined, options: PackedOptions = {}): unknown => {
    const body = bytes(key, place);
    if (body === undefined) return undefined;
    try {
      return (options.plain ? plainPackr : packr).unpack(body);
    } catch {
      // Bytes that are no value (a pack damaged where its key still reads): no entry.
      return undefined;
    }
  };

  return {
    db<V>(places: Database<Place, string>, options: PackedOptions = {}): PackedDb<V> {
      opened.set(places, options);
      return {
        get: (key) => read(key, places.get(key), options) as V | undefined,
        getBinary: (key) => bytes(key, places.get(key)),
        put: (key, value) => {
          let place: Place;
          try {
            place = append(key, value, options);
          } catch (error) {
            failed ??= error instanceof Error ? error : new Error(String(error));
            if (writer) closeSync(writer.fd);
            writer = undefined;
            return Promise.reject(failed);
          }
          return places.put(key, place);
        },
        remove: (key) => places.remove(key),
        doesExist: (key) => places.doesExist(key),
        getKeys: () => places.getKeys(),
        getKeysCount: () => places.getKeysCount(),
        getStats: () => places.getStats(),
      };
    },
    dbs: () => [...opened].map(([places, options]) => ({ places, options })),
    value: read,
    failure: () => failed,
    close: () => {
      for (const { fd } of readers.values()) closeSync(fd);
      readers.clear();
      if (writer) closeSync(writer.fd);
      writer = undefined;
    },
  };
}

/** A database of places, and the options its values are packed with (`Packs.db`). */
export interface PlaceDb {
  places: Database<Place, string>;
  options?: PackedOptions;
}

/** When the packs hold more than this many bytes besides the ones used, `collectPacks` rewrites them. */
const SLACK_BYTES = 32 * 1024 ** 2;

/**
 * Removes the packs no place names, and rewrites those mostly unused (the records an edit replaced),
 * when the packs hold more than twice what the places name plus `SLACK_BYTES`. Packs written since
 * `since` (by this build's threads, or by another process) are left as they are. Run by the main
 * thread once the build's writes are committed; returns the bytes the places name.
 */
export async function collectPacks(root: RootDatabase, dir: string, packs: Packs, since: number, lastUsed: number): Promise<number> {
  let files: { name: string; size: number; modified: number }[];
  try {
    files = readdirSync(dir)
      .filter((name) => name.endsWith('.pack'))
      .map((name) => {
        const stats = statSync(join(dir, name));
        return { name, size: stats.size, modified: stats.mtimeMs };
      });
  } catch {
    return 0;
  }
  if (files.reduce((sum, file) => sum + file.size, 0) <= 2 * lastUsed + SLACK_BYTES) return lastUsed;
  // The bytes each pack's records use, and the entries of the packs old enough to be rewritten.
  const old = new Set(files.filter((file) => file.modified < since).map((file) => file.name));
  const used = new Map<string, number>();
  const entries = new Map<string, [db: PlaceDb, key: string, place: Place][]>();
  let total = 0;
  for (const db of packs.dbs()) {
    for (const { key, value } of db.places.getRange()) {
      if (!Array.isArray(value) || typeof value[0] !== 'string') continue;
      used.set(value[0], (used.get(value[0]) ?? 0) + value[2]);
      total += value[2];
      if (!old.has(value[0])) continue;
      let list = entries.get(value[0]);
      if (!list) entries.set(value[0], (list = []));
      list.push([db, key, value]);
    }
  }
  const rewrite = files.filter((file) => old.has(file.name) && (used.get(file.name) ?? 0) * 2 < file.size).map((file) => file.name);
  if (rewrite.length === 0) return total;
  // Each used record of those packs copied to this thread's pack, read as it is copied.
  await root.transaction(() => {
    for (const [db, key, place] of rewrite.flatMap((name) => entries.get(name) ?? [])) {
      const value = packs.value(key, place, db.options);
      if (value === undefined) db.places.remove(key);
      // A write that fails (a full disk) is `packs.failure()`, looked at below.
      else packs.db(db.places, db.options).put(key, value).catch(() => undefined);
    }
  });
  if (packs.failure()) return lastUsed;
  for (const name of rewrite) rmSync(join(dir, name), { force: true });
  return total;
}
