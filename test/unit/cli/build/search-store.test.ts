/**
 * The build's search index over the build store (cli/build/search/source.ts): when the site has more
 * postings than the index holds by document, the pages are read twice, the second time from the
 * counts the first reading handed the store, and the index is the one made from the text; otherwise
 * the index keeps its state in the cache folder, and the next build's index takes its unchanged pages
 * and untouched shards from there and from the output.
 */
import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SearchBlock } from '../../../../runtime/search/format';
import { SEARCH_ENTRY, searchIndexFiles, type SearchInput } from '../../../../cli/build/search/index';
import { makeBuildIndex } from '../../../../cli/build/search/source';
import { openStore, type BuildStore } from '../../../../cli/build/store';
import type { PageResult } from '../../../../cli/build/page-job';

let stores: BuildStore[] = [];
afterEach(async () => {
  await Promise.all(stores.map((store) => store.close()));
  stores = [];
});

/** 120 runbook pages of two or three blocks. */
function pages(): SearchInput[] {
  return Array.from({ length: 120 }, (_, i) => {
    const blocks: SearchBlock[] = [{ text: `Station ${i} counts the laps of every team whose beacon passes within ${i % 9} metres.` }];
    blocks.push({ anchor: 'restart', heading: 'Restarting the station', text: `Pull the power of rack ${i % 5}, wait ${i % 3 + 1} minutes; the counter catches up from NATS.` });
    if (i % 3 === 0) blocks.push({ anchor: 'logs', heading: 'Logs', text: `journalctl -u telpost-${i} shows the detections per second.` });
    return { route: `/race/station-${i}`, title: `Station ${i}`, section: 'Race', blocks };
  });
}

/** The pages' first index with a store and a state file (in a new cache folder named from `prefix`), and the files it wrote. */
async function firstIndex(prefix: string) {
  const inputs = pages();
  const cache = mkdtempSync(join(tmpdir(), prefix));
  const stateFile = join(cache, 'search-state.bin');
  const store = openStore(cache)!;
  stores.push(store);
  await store.transaction(() => inputs.forEach((page, i) => store.search.put(`key-${i}`, page.blocks)));
  const results = inputs.map((_, i) => ({ markdownKey: `key-${i}` }) as PageResult);
  const output: Record<string, string> = {};
  const first = await makeBuildIndex({ pages: inputs, results, store, stateFile, write: (file, text) => (output[file] = text) });
  return { inputs, stateFile, store, results, output, first };
}

describe('a build index read twice', () => {
  it('reads each page text once, the second reading from the counts the store committed, and is the index made from the text', async () => {
    const inputs = pages();
    const store = openStore(mkdtempSync(join(tmpdir(), 'docs-index-store-')))!;
    stores.push(store);
    await store.transaction(() => inputs.forEach((page, i) => store.search.put(`key-${i}`, page.blocks)));
    const results = inputs.map((_, i) => ({ markdownKey: `key-${i}` }) as PageResult);
    const searchReads = new Map<string, number>();
    const get = store.search.get.bind(store.search);
    store.search.get = (key: string) => (searchReads.set(key, (searchReads.get(key) ?? 0) + 1), get(key));
    const files: Record<string, string> = {};
    const made = await makeBuildIndex({ pages: inputs, results, store, write: (file, text) => (files[file] = text), limits: { heldPostings: 0 } });
    expect({ ...files, [SEARCH_ENTRY]: made.entry }).toEqual(searchIndexFiles(inputs));
    expect(searchReads.size).toBe(120);
    expect([...searchReads.values()].every((reads) => reads === 1)).toBe(true);
    // The counts are the store's for the next build too.
    expect(store.terms.getKeysCount()).toBe(120);
  });
});

describe('a build index that keeps its state', () => {
  it('reads only the edited page\'s counts and writes only the shards it changed, through the store, the state file and the output record', async () => {
    const { inputs, stateFile, store, results, output, first } = await firstIndex('docs-index-state-');
    expect(existsSync(stateFile)).toBe(true);
    expect(first.state).toMatch(/^[0-9a-f-]{36}$/);

    // Page 40 gains a sentence: a new markdown key, its blocks in the store.
    const edited = inputs.map((page, i) => (i === 40 ? { ...page, blocks: [{ text: `${page.blocks[0]!.text} Its beacon was replaced in May.` }, ...page.blocks.slice(1)] } : page));
    await store.transaction(() => store.search.put('key-40b', edited[40]!.blocks));
    const termReads: string[] = [];
    const get = store.terms.get.bind(store.terms);
    store.terms.get = (key: string) => (termReads.push(key), get(key));
    const written: Record<string, string> = {};
    const previous = { outDir: '/out', pages: inputs.length, search: first };
    const second = await makeBuildIndex({ pages: edited, results: results.map((result, i) => (i === 40 ? { markdownKey: 'key-40b' } as PageResult : result)), store, stateFile, previous, present: new Set(first.files), write: (file, text) => (written[file] = text) });
    expect(termReads).toEqual(['key-40b']);
    const fresh = searchIndexFiles(edited);
    const shards = Object.keys(fresh).filter((file) => file.includes('/t-'));
    expect(Object.keys(written).filter((file) => file.includes('/t-')).sort()).toEqual(shards.filter((file) => !(file in output)).sort());
    expect(shards.some((file) => file in output)).toBe(true);
    expect(new Set([...second.files, SEARCH_ENTRY])).toEqual(new Set(Object.keys(fresh)));
    expect({ ...Object.fromEntries(second.files.map((file) => [file, written[file] ?? output[file]])), [SEARCH_ENTRY]: second.entry }).toEqual(fresh);

    // An index too large to hold by document keeps no state: the file goes.
    await makeBuildIndex({ pages: edited, results, store, stateFile, write: () => undefined, limits: { heldPostings: 0 } });
    expect(existsSync(stateFile)).toBe(false);
  });
});

describe('a shard made again for an edit', () => {
  it('takes its unchanged terms\' entries from the shard the output holds, not from their postings', async () => {
    const { inputs, stateFile, store, results, output, first } = await firstIndex('docs-index-reuse-');
    copyFileSync(stateFile, `${stateFile}.first`);
    // Page 7 gains a sentence about its counter: the shards of its new words are made again.
    const edited = inputs.map((page, i) => (i === 7 ? { ...page, blocks: [{ text: `${page.blocks[0]!.text} Its counter was recalibrated in March.` }, ...page.blocks.slice(1)] } : page));
    await store.transaction(() => store.search.put('key-7b', edited[7]!.blocks));
    const second = (read: (file: string) => string | undefined): Promise<Record<string, string>> => {
      copyFileSync(`${stateFile}.first`, stateFile);
      const written: Record<string, string> = {};
      const previous = { outDir: '/out', pages: inputs.length, search: first };
      const made = makeBuildIndex({ pages: edited, results: results.map((result, i) => (i === 7 ? ({ markdownKey: 'key-7b' } as PageResult) : result)), store, stateFile, previous, present: new Set(first.files), read, write: (file, text) => (written[file] = text) });
      return made.then((search) => ({ ...Object.fromEntries(search.files.map((file) => [file, written[file] ?? output[file]!])), [SEARCH_ENTRY]: search.entry }));
    };
    const opened: string[] = [];
    const index = await second((file) => (opened.push(file), output[file]));
    expect(index).toEqual(searchIndexFiles(edited));
    // The shards made again were read as the previous index wrote them.
    const remade = Object.keys(index).filter((file) => file.includes('/t-') && !(file in output));
    expect(remade.length).toBeGreaterThan(0);
    expect(opened.length).toBe(remade.length);
    expect(opened.every((file) => file in output && file.includes('/t-'))).toBe(true);

    // What it takes is what the shard says: an unchanged term given another weight there has it in the new shard.
    const shardFile = opened[0]!;
    const shard = JSON.parse(output[shardFile]!) as { terms: Record<string, number[]> };
    const newShard = JSON.parse(index[remade.find((file) => file.split('/t-')[1]!.split('.')[0] === shardFile.split('/t-')[1]!.split('.')[0])!]!) as { terms: Record<string, number[]> };
    const term = Object.keys(shard.terms).find((name) => JSON.stringify(shard.terms[name]) === JSON.stringify(newShard.terms[name]))!;
    expect(term).toBeDefined();
    const doctored = { ...shard, terms: { ...shard.terms, [term]: shard.terms[term]!.map((value, i) => (i === 1 ? value + 1 : value)) } };
    const taken = await second((file) => (file === shardFile ? JSON.stringify(doctored) : output[file]));
    const takenShard = Object.entries(taken).find(([file]) => file.includes('/t-') && !(file in output) && file.split('/t-')[1]!.split('.')[0] === shardFile.split('/t-')[1]!.split('.')[0])!;
    expect((JSON.parse(takenShard[1]) as { terms: Record<string, number[]> }).terms[term]).toEqual(doctored.terms[term]);
    // An entry the shard does not hold as it should (a count that is not the term's) is made from the postings.
    const broken = { ...shard, terms: { ...shard.terms, [term]: [1] } };
    expect(await second((file) => (file === shardFile ? JSON.stringify(broken) : output[file]))).toEqual(searchIndexFiles(edited));
  });
});
