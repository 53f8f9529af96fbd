/**
 * The docs of page files kept between builds (cli/build/read-cache.ts): a file whose stats did not
 * change is not read again, and the content a rebuild collects from the kept docs is the content a
 * fresh read gives.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { collectContent, readPageLean, type SourceFile } from '../../../../cli/build/content';
import { readCache } from '../../../../cli/build/read-cache';
import { readContentFolder } from '../../../../cli/build/sources';
import { openStore, type BuildStore } from '../../../../cli/build/store';
import { isPlainMap } from '../../../support/msgpack';

const sidebars = [
  { id: 'wiki', label: 'Wiki', dir: 'wiki' },
  { id: 'race', label: '24 urenloop', dir: 'race' },
];
const reading = { sidebars, homepageDoc: 'wiki/index', displayPrefix: 'content/' };

let stores: BuildStore[] = [];
afterEach(async () => {
  await Promise.all(stores.map((store) => store.close()));
  stores = [];
});

/** A content folder of a few pages, and a store beside it. */
function site(): { content: string; store: BuildStore } {
  const root = mkdtempSync(join(tmpdir(), 'docs-reads-'));
  const content = join(root, 'content');
  const page = (rel: string, text: string) => {
    mkdirSync(join(content, rel, '..'), { recursive: true });
    writeFileSync(join(content, rel), text);
  };
  page('wiki/index.md', '---\ntitle: Welcome\n---\n\nThe staff wiki.\n');
  page('wiki/secretaris.md', '# Secretaris\n\nMinutes go in the shared drive.\n');
  page('race/beacons.md', '---\ntitle: Beacons\nsidebar_position: 2\ndescription: Assigning beacons to teams.\n---\n\nEach team carries one beacon.\n');
  page('race/stations/index.md', '---\nslug: /race/telposten\n---\n\n# Stations\n\nA station counts laps.\n');
  const store = openStore(join(root, 'cache'))!;
  stores.push(store);
  return { content, store };
}

/** One build's content stage, as `buildWith` runs it: a lean read of each file, the cache asked first. */
function collect(content: string, store: BuildStore, options = reading) {
  const cache = readCache(store, options);
  const read: string[] = [];
  const files = readContentFolder(
    content,
    'content/',
    (file: SourceFile) => {
      read.push(file.rel);
      readPageLean(file, options);
      file.text = '';
    },
    cache.known,
  );
  const tree = collectContent({ files: files.markdown, categories: files.categories, ...options });
  cache.save(files.markdown);
  return { tree, read };
}

describe('the read cache', () => {
  it('reads each file once, then only those whose size, mtime or ctime changed, and collects the same content', async () => {
    const { content, store } = site();
    const secretaris = join(content, 'wiki/secretaris.md');
    const newYear = new Date(Date.UTC(2026, 0, 1));
    utimesSync(secretaris, newYear, newYear);
    const first = collect(content, store);
    expect(first.read.sort()).toEqual(['race/beacons.md', 'race/stations/index.md', 'wiki/index.md', 'wiki/secretaris.md']);
    await store.flush();
    const second = collect(content, store);
    expect(second.read).toEqual([]);
    expect(second.tree).toEqual(first.tree);

    appendFileSync(join(content, 'race/beacons.md'), '\nA spare beacon hangs in the tent.\n');
    // The same size and mtime, another text: the ctime still tells.
    writeFileSync(secretaris, '# Voorzitter\n\nMinutes go in the shared drive.\n');
    utimesSync(secretaris, newYear, newYear);
    await store.flush();
    const third = collect(content, store);
    expect(third.read.sort()).toEqual(['race/beacons.md', 'wiki/secretaris.md']);
    expect(third.tree.docs.find((doc) => doc.rel === 'wiki/secretaris.md')!.title).toBe('Voorzitter');
    expect(third.tree.docs.find((doc) => doc.rel === 'race/beacons.md')!.bodyHash).not.toBe(first.tree.docs.find((doc) => doc.rel === 'race/beacons.md')!.bodyHash);
    expect(third.tree.docs.find((doc) => doc.rel === 'race/stations/index.md')!.route).toBe('/race/telposten');
    // Each doc is kept as plain maps (store.ts PLAIN_MAPS): a rebuild decodes 10,000 of them without compiling a reader per entry.
    await store.flush();
    for (const key of store.reads.getKeys()) expect(isPlainMap(store.reads.getBinary(key)!), String(key)).toBe(true);
  });

  it('reads every file again under other sidebars or another homepage, and always reads a symbolic link', async () => {
    const { content, store } = site();
    collect(content, store);
    await store.flush();
    const moved = { ...reading, homepageDoc: 'race/beacons' };
    const other = collect(content, store, moved);
    expect(other.read).toHaveLength(4);
    expect(other.tree.docs.find((doc) => doc.rel === 'race/beacons.md')!.route).toBe('/');

    symlinkSync(join(content, 'race/beacons.md'), join(content, 'race/beacons-link.md'));
    collect(content, store, moved);
    await store.flush();
    expect(collect(content, store, moved).read).toEqual(['race/beacons-link.md']);
  });

  it('forgets the files that are gone', async () => {
    const { content, store } = site();
    collect(content, store);
    await store.flush();
    expect([...store.reads.getKeys()].sort()).toEqual(['race/beacons.md', 'race/stations/index.md', 'wiki/index.md', 'wiki/secretaris.md']);
    rmSync(join(content, 'wiki/secretaris.md'));
    collect(content, store);
    await store.flush();
    expect([...store.reads.getKeys()].sort()).toEqual(['race/beacons.md', 'race/stations/index.md', 'wiki/index.md']);
  });

  it('forgets a file that is gone when a new one took its place (as many files as before)', async () => {
    const { content, store } = site();
    collect(content, store);
    await store.flush();
    // As many files as before: one renamed.
    writeFileSync(join(content, 'wiki/penningmeester.md'), '# Penningmeester\n\nThe treasurer keeps the books.\n');
    rmSync(join(content, 'wiki/secretaris.md'));
    collect(content, store);
    await store.flush();
    expect([...store.reads.getKeys()].sort()).toEqual(['race/beacons.md', 'race/stations/index.md', 'wiki/index.md', 'wiki/penningmeester.md']);
    // Nothing gone: nothing removed, the entries as they were.
    expect(collect(content, store).read).toEqual([]);
    await store.flush();
    expect([...store.reads.getKeys()].length).toBe(4);
  });
});
