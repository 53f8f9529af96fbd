/**
 * What a build leaves in the store (cli/build/store.ts `saveState`): the rendered pages' entries, no
 * entry of a route that is gone, no markdown entry no page uses — found by what changed, the keys of
 * a database read only when it holds strays.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, saveState, STORE_FILE, type BuildStore, type OutputRecord } from '../../../../cli/build/store';
import { isPlainMap } from '../../../support/msgpack';
import { open } from 'lmdb';
import type { PageJob, PageResult } from '../../../../cli/build/page-job';

let stores: BuildStore[] = [];
afterEach(async () => {
  await Promise.all(stores.map((store) => store.close()));
  stores = [];
});

const record: OutputRecord = { outDir: '/site/dist', pages: 0, search: { files: [], entry: '{}' } };

/** A store whose databases count the times their keys are read whole. */
function storeWithScans(): { store: BuildStore; scans: Record<string, number> } {
  const store = openStore(mkdtempSync(join(tmpdir(), 'docs-save-state-')))!;
  stores.push(store);
  const scans: Record<string, number> = {};
  for (const name of ['markdown', 'search', 'terms', 'pages'] as const) {
    const db = store[name];
    const getKeys = db.getKeys.bind(db);
    db.getKeys = () => ((scans[name] = (scans[name] ?? 0) + 1), getKeys());
  }
  return { store, scans };
}

/** What the render threads write for a page: its markdown, search blocks and (the index's) terms. */
async function rendered(store: BuildStore, key: string): Promise<void> {
  await Promise.all([
    store.markdown.put(key, { html: `<p>${key}</p>`, toc: [], ids: [], links: [], warnings: [], errors: [], hasMermaid: false, hasTabs: false, images: [], routeLookups: '[]' }),
    store.search.put(key, [{ text: key }]),
    store.terms.put(key, { terms: key, anchors: [''], headings: [''], counts: new Uint8Array([1, 1, 0, 1]) }),
  ]);
}

/** A build of `pages` (route → markdown key), of which `render` were rendered. */
async function build(store: BuildStore, pages: Record<string, string>, render: string[]): Promise<void> {
  const routes = Object.keys(pages);
  for (const route of render) await rendered(store, pages[route]!);
  const jobs = routes.map((route) => ({ route }) as PageJob);
  const results = routes.map((route) => ({ route, markdownKey: pages[route], files: [], links: [], ids: [], images: [], warnings: [], errors: [] }) as unknown as PageResult);
  const saved = await saveState(store, { record, jobs, results, keys: routes.map((route) => `out-${pages[route]}`), rendered: render.map((route) => routes.indexOf(route)) });
  expect(saved).toBe(true);
}

const keysOf = (store: BuildStore) => ({
  markdown: [...store.markdown.getKeys()].sort(),
  search: [...store.search.getKeys()].sort(),
  terms: [...store.terms.getKeys()].sort(),
  pages: [...store.pages.getKeys()].sort(),
});

describe('the store a build leaves', () => {
  it('after a first build holds every page, and no key was read to find what to remove', async () => {
    const { store, scans } = storeWithScans();
    await build(store, { '/a': 'ka', '/b': 'kb', '/c': 'kc' }, ['/a', '/b', '/c']);
    expect(scans).toEqual({});
    expect(keysOf(store)).toEqual({ markdown: ['ka', 'kb', 'kc'], search: ['ka', 'kb', 'kc'], terms: ['ka', 'kb', 'kc'], pages: ['/a', '/b', '/c'] });
    expect(store.pages.get('/b')).toMatchObject({ key: 'out-kb', result: { markdownKey: 'kb', cached: true } });
    // Written as plain maps (store.ts PLAIN_MAPS), which a rebuild decodes without compiling a reader per entry.
    expect(isPlainMap(store.pages.getBinary('/b')!)).toBe(true);
    expect(store.meta.get('output')).toEqual(record);
  });

  it('after an edit drops the edited page’s old entries by their key, still reading no database whole', async () => {
    const { store, scans } = storeWithScans();
    await build(store, { '/a': 'ka', '/b': 'kb', '/c': 'kc' }, ['/a', '/b', '/c']);
    // /b edited (a new markdown key); /c laid out again with the same markdown (a new sidebar, say).
    await build(store, { '/a': 'ka', '/b': 'kb2', '/c': 'kc' }, ['/b', '/c']);
    expect(scans).toEqual({});
    expect(keysOf(store)).toEqual({ markdown: ['ka', 'kb2', 'kc'], search: ['ka', 'kb2', 'kc'], terms: ['ka', 'kb2', 'kc'], pages: ['/a', '/b', '/c'] });
  });

  it('drops the routes that are gone and the entries of strays (a killed build’s), reading the keys to find them', async () => {
    const { store, scans } = storeWithScans();
    await build(store, { '/a': 'ka', '/b': 'kb', '/c': 'kc' }, ['/a', '/b', '/c']);
    // A killed build rendered /a with an edit that was then undone: its entries are no page's.
    await rendered(store, 'ka-killed');
    // /c was removed, /d added.
    await build(store, { '/a': 'ka', '/b': 'kb', '/d': 'kd' }, ['/d']);
    expect(scans).toEqual({ markdown: 1, search: 1, terms: 1, pages: 1 });
    expect(keysOf(store)).toEqual({ markdown: ['ka', 'kb', 'kd'], search: ['ka', 'kb', 'kd'], terms: ['ka', 'kb', 'kd'], pages: ['/a', '/b', '/d'] });
  });
});

describe('the output record as the store keeps it', () => {
  it('reads back every list as it was written, an empty key and an empty list among them, as one string each in the store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-record-'));
    const store = openStore(dir)!;
    stores.push(store);
    const full: OutputRecord = {
      outDir: '/site/dist',
      pages: 2,
      files: ['index.html', 'guide/index.html', 'assets/search/d-0.abc.json'],
      digest: 'f00d',
      search: { files: ['assets/search/d-0.abc.json'], entry: '{"version":1}', chunkKeys: [''], tailKeys: [['k', 't-a.1.json', 'alpha']], state: 'id' },
    };
    await store.meta.put('output', full);
    expect(store.meta.get('output')).toEqual(full);
    // Strings, which msgpack writes as one copy each (some 20 ms less at 10,000 pages than 35,000 strings).
    const raw = open({ path: join(dir, STORE_FILE), maxDbs: 8 }).openDB<{ files: unknown; search: Record<string, unknown> }, string>({ name: 'meta' }).get('output')!;
    expect([raw.files, raw.search.files, raw.search.chunkKeys, raw.search.tailKeys].map((list) => typeof list)).toEqual(['string', 'string', 'string', 'string']);
    await store.meta.put('output', { ...full, files: [], search: { ...full.search, chunkKeys: [], tailKeys: [] } });
    expect(store.meta.get('output')).toMatchObject({ files: [], search: { chunkKeys: [], tailKeys: [] } });
  });

  it('reads a record an earlier version wrote with its lists as arrays, and none whose lists are something else', async () => {
    const old = { outDir: '/site/dist', pages: 1, files: ['index.html'], search: { files: ['assets/search/index.json'], entry: '{}', chunkKeys: ['c'], tailKeys: [] } };
    /** What the store reads of `value` written straight into LMDB, past its own encoding. */
    const readBack = async (value: unknown): Promise<OutputRecord | undefined> => {
      const dir = mkdtempSync(join(tmpdir(), 'docs-record-'));
      const root = open({ path: join(dir, STORE_FILE), maxDbs: 8 });
      await root.openDB({ name: 'meta' }).put('output', value);
      await root.close();
      const store = openStore(dir)!;
      stores.push(store);
      return store.meta.get('output');
    };
    expect(await readBack(old)).toEqual(old);
    expect(await readBack({ ...old, files: 42 })).toBeUndefined();
    expect(await readBack({ ...old, search: { ...old.search, tailKeys: '{not json' } })).toBeUndefined();
  });
});
