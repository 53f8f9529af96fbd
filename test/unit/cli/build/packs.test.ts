/**
 * The store's large values in pack files (cli/build/packs.ts): read back whole, never through a map
 * (so never in the build's memory), refused when damaged, and collected once no entry uses them.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync, writeSync, closeSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PACKS_DIR } from '../../../../cli/build/packs';
import { open as openLmdb } from 'lmdb';
import type { KeptRead } from '../../../../cli/build/read-cache';
import { openStore, STORE_FILE, type BuildStore, type PageOutput } from '../../../../cli/build/store';
import type { SearchBlock } from '../../../../runtime/search/format';

let open: BuildStore[] = [];
afterEach(async () => {
  await Promise.all(open.map((store) => store.close()));
  open = [];
});

function storeIn(dir: string): BuildStore {
  const store = openStore(dir)!;
  open.push(store);
  return store;
}

async function closed(store: BuildStore): Promise<void> {
  await store.close();
  open = open.filter((other) => other !== store);
}

/** Search blocks of about `bytes` bytes that no compression shrinks, tagged with `tag`. */
const blocks = (tag: string, bytes: number): SearchBlock[] => [{ text: `${tag} ${randomBytes(bytes / 2).toString('hex')}`, anchor: tag }];

/** Resident kilobytes of this process's mappings of `file` (/proc/self/smaps). */
function residentKb(file: string): number {
  let kb = 0;
  let inFile = false;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) inFile = line.endsWith(file);
    else if (inFile && line.startsWith('Rss:')) kb += Number(line.split(/\s+/)[1]);
  }
  return kb;
}

const packsOf = (dir: string): string[] => readdirSync(join(dir, PACKS_DIR)).filter((name) => name.endsWith('.pack')).sort();

describe('the packs of the build store', () => {
  it('keep the large values out of LMDB and out of the process memory, and read them back after a reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-packs-'));
    const store = storeIn(dir);
    const written = Array.from({ length: 2_000 }, (_, i) => blocks(`page-${i}`, 8_000));
    await store.transaction(() => written.forEach((value, i) => void store.search.put(`key-${i}`, value)));
    await closed(store);
    // 16 MB of blocks: in the packs, not in LMDB's file.
    const packed = packsOf(dir).reduce((sum, name) => sum + statSync(join(dir, PACKS_DIR, name)).size, 0);
    expect(packed).toBeGreaterThan(16_000_000);
    expect(statSync(join(dir, STORE_FILE)).size).toBeLessThan(2_000_000);

    const again = storeIn(dir);
    written.forEach((value, i) => expect(again.search.get(`key-${i}`)).toEqual(value));
    expect(again.search.get('key-absent')).toBeUndefined();
    // Every value read, and under a megabyte of the store's map resident: the packs were read, not mapped.
    expect(residentKb(join(dir, STORE_FILE))).toBeLessThan(1_024);
    expect(readFileSync('/proc/self/maps', 'utf8')).not.toContain(join(dir, PACKS_DIR));
  });

  it('read a damaged, cut or removed pack as no entry, never as another value', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-packs-'));
    const first = storeIn(dir);
    await first.transaction(() => ['a', 'b', 'c'].forEach((key) => void first.search.put(key, blocks(key, 1_000))));
    await closed(first);
    const [pack] = packsOf(dir);
    const file = join(dir, PACKS_DIR, pack!);
    // The second record's first bytes overwritten, the third cut short.
    const size = statSync(file).size;
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.from('garbage!'), 0, 8, Math.floor(size / 3) + 1);
    closeSync(fd);
    truncateSync(file, size - 10);
    const second = storeIn(dir);
    expect(second.search.get('a')?.[0]?.anchor).toBe('a');
    expect(second.search.get('b')).toBeUndefined();
    expect(second.search.get('c')).toBeUndefined();
    await closed(second);

    rmSync(file);
    const third = storeIn(dir);
    expect(third.search.get('a')).toBeUndefined();
    // Writes go on in a pack of their own.
    await third.search.put('d', blocks('d', 100));
    expect(third.search.get('d')?.[0]?.anchor).toBe('d');
  });

  it('remove the packs no entry uses and rewrite those mostly unused, keeping every value', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-packs-'));
    const values = new Map<string, SearchBlock[]>();
    const write = (store: BuildStore, tag: string, count: number): Promise<void> =>
      store.transaction(() => {
        for (let i = 0; i < count; i++) {
          values.set(`page-${i}`, blocks(`${tag}-${i}`, 200_000));
          void store.search.put(`page-${i}`, values.get(`page-${i}`)!);
        }
      });
    const packedBytes = (): number => packsOf(dir).reduce((sum, name) => sum + statSync(join(dir, PACKS_DIR, name)).size, 0);
    // 20 MB: 100 pages.
    const first = storeIn(dir);
    await write(first, 'first', 100);
    await first.collect();
    await closed(first);
    const [firstPack] = packsOf(dir);
    await new Promise((resolve) => setTimeout(resolve, 20));

    // Edits to 80 of them, four times over: 64 MB more, the packs now hold over twice what is used and 32 MB.
    const second = storeIn(dir);
    for (let round = 0; round < 4; round++) await write(second, `second-${round}`, 80);
    await second.collect();
    // The first pack, a fifth used, is gone: its 20 pages were moved to this build's pack.
    expect(packsOf(dir)).not.toContain(firstPack);
    values.forEach((value, key) => expect(second.search.get(key)).toEqual(value));
    expect(packedBytes()).toBeLessThan(90_000_000);
    await closed(second);
    await new Promise((resolve) => setTimeout(resolve, 20));

    // Every page written again: the second build's pack is used no more, and goes whole.
    const third = storeIn(dir);
    const before = packsOf(dir);
    await write(third, 'third', 100);
    await third.collect();
    expect(packsOf(dir).filter((name) => before.includes(name))).toEqual([]);
    values.forEach((value, key) => expect(third.search.get(key)).toEqual(value));
    expect(packedBytes()).toBeLessThan(21_000_000);
  });
});

describe('a rebuild reading every page’s stored result and doc', () => {
  it('leaves them out of its memory: they are read from the packs, not through LMDB’s map', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-packs-'));
    // What a 4,000-page site leaves: each route's result (links and ids, some 2 KB) and each file's doc.
    const routes = Array.from({ length: 4_000 }, (_, i) => `/wiki/page-${i}`);
    const resultOf = (i: number) => ({ route: routes[i], links: Array.from({ length: 20 }, (_, l) => ({ route: `/wiki/${randomBytes(24).toString('hex')}`, line: l })) });
    const docOf = (i: number) => ({ route: routes[i], title: `Page ${i}`, bodyHash: randomBytes(32).toString('hex'), frontmatter: { description: randomBytes(200).toString('hex') } });
    const written = storeIn(dir);
    const results = routes.map((_, i) => resultOf(i));
    const docs = routes.map((_, i) => docOf(i));
    routes.forEach((route, i) => {
      void written.pages.put(route, { key: `key-${i}`, result: results[i] } as unknown as PageOutput);
      void written.reads.put(`wiki/page-${i}.md`, { key: 'reading', stats: '1:2:3', doc: docs[i] } as unknown as KeptRead);
    });
    await closed(written);
    // The next build's process opens the store afresh, and reads all of it.
    const store = storeIn(dir);
    routes.forEach((route, i) => {
      expect(store.pages.get(route)).toEqual({ key: `key-${i}`, result: results[i] });
      expect(store.reads.get(`wiki/page-${i}.md`)).toEqual({ key: 'reading', stats: '1:2:3', doc: docs[i] });
    });
    // Some 11 MB of values read (in LMDB, 11 MB of its file were resident after); only their places were mapped.
    expect(residentKb(join(dir, STORE_FILE))).toBeLessThan(2_048);
  });
});

describe('a store an earlier version of docs left (`build.lmdb`, its results and docs in LMDB)', () => {
  it('is removed with its packs when the store opens, and the store opens empty and works', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-packs-'));
    // 20 MB of results in LMDB's file, as those versions wrote them, and a pack of theirs.
    const earlier = openLmdb({ path: join(dir, 'build.lmdb'), maxDbs: 8 });
    const pages = earlier.openDB<{ key: string; result: { links: string } }, string>({ name: 'pages', compression: true });
    await earlier.transaction(() => {
      for (let i = 0; i < 5_000; i++) void pages.put(`/wiki/page-${i}`, { key: `key-${i}`, result: { links: randomBytes(2_000).toString('hex') } });
    });
    await earlier.close();
    mkdirSync(join(dir, PACKS_DIR), { recursive: true });
    writeFileSync(join(dir, PACKS_DIR, '0123456789ab.pack'), randomBytes(4_096));
    expect(statSync(join(dir, 'build.lmdb')).size).toBeGreaterThan(20_000_000);

    const store = storeIn(dir);
    expect(existsSync(join(dir, 'build.lmdb'))).toBe(false);
    expect(existsSync(join(dir, 'build.lmdb-lock'))).toBe(false);
    expect(existsSync(join(dir, PACKS_DIR, '0123456789ab.pack'))).toBe(false);
    expect(store.pages.get('/wiki/page-1')).toBeUndefined();
    await store.pages.put('/wiki/page-1', { key: 'key-1', result: { route: '/wiki/page-1' } } as unknown as PageOutput);
    expect(store.pages.get('/wiki/page-1')).toEqual({ key: 'key-1', result: { route: '/wiki/page-1' } });
    // The store's own file is small: a few places.
    await store.flush();
    expect(statSync(join(dir, STORE_FILE)).size).toBeLessThan(1_000_000);
  });
});
