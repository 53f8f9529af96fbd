/**
 * The search index a build makes from the state the previous build's index kept (cli/build/search/
 * state.ts): after every kind of edit, the same files, byte for byte, as an index made from nothing;
 * the unchanged pages neither read nor counted again; and after a small edit, the shards and tails the
 * edit did not touch kept as the output holds them.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SearchBlock } from '../../../../runtime/search/format';
import { searchIndex, searchIndexFiles, SEARCH_ENTRY, type IndexLimits, type IndexSource, type SearchInput } from '../../../../cli/build/search/index';
import { keysOf, readState, roundedAverage, shownOf, writeState, type IndexState, type PreviousIndex } from '../../../../cli/build/search/state';
import { hash } from '../../../../cli/util/hash';

/** 400 pages of one to four blocks; every page says "station" (a term with a tail), most say "ronde". */
function site(): SearchInput[] {
  return Array.from({ length: 400 }, (_, i) => {
    const blocks: SearchBlock[] = [];
    for (let b = 0; b < 1 + (i % 4); b++) {
      blocks.push({
        ...(b > 0 ? { anchor: `part-${b}`, heading: `Part ${b} of zone ${i % 7}` } : {}),
        ...(b === 0 && i % 5 === 0 ? { api: `GET /stations/{stationId} readStation${i}` } : {}),
        text: `Page ${i} block ${b}: the station counts laps ${'ronde '.repeat(1 + ((i * b) % 6))}with beacon ${i % 13} and telpost ${i % 17}, checked by volunteer ${i % 29}.`,
      });
    }
    return { route: `/race/page-${i}`, title: `Station ${i} runbook`, section: `Race › Zone ${i % 3}`, blocks };
  });
}

/** What a build keeps for the next in this test: the store's counts aside, the index's state and the output's record of the index. */
interface Kept {
  state?: IndexState;
  stateId?: string;
  /** The output's index files, by path. */
  output: Record<string, string>;
  tailKeys: [key: string, file: string, term: string][];
  /** Its document chunks: key and file, in order. */
  chunks: [key: string, file: string][];
}

/** What a first build starts from: nothing. */
const NOTHING: Kept = { output: {}, tailKeys: [], chunks: [] };

/** One build's index over `pages`, with what `kept` holds from the build before; the pages it read or counted, and the files it kept. */
function build(pages: SearchInput[], kept: Kept, limits?: IndexLimits) {
  const written: Record<string, string> = {};
  const keptFiles: string[] = [];
  const read = new Set<number>();
  const counted = new Set<number>();
  const entry = kept.output[SEARCH_ENTRY];
  const meta = entry ? (JSON.parse(entry) as { split: string[]; sections: string[]; documents: number; shards: Record<string, string> }) : undefined;
  const present = (file: string) => `assets/search/${file}` in kept.output;
  const source: IndexSource = {
    blocks: (page) => (read.add(page), pages[page]!.blocks),
    counted: (page) => counted.add(page),
    blocksKey: (page) => hash(JSON.stringify(pages[page]!.blocks)),
    previousTail: (key) => kept.tailKeys.find(([tail, file]) => tail === key && present(file))?.[1],
    previousChunk: (key) => kept.chunks.find(([chunk, file]) => chunk === key && present(file))?.[1],
    salt: 'v1',
    previousState: () => kept.state,
    previousIndex: (id): PreviousIndex | undefined =>
      meta && id === kept.stateId
        ? {
            ...meta,
            shards: new Map(Object.entries(meta.shards).filter(([, file]) => present(file))),
            tails: new Map(kept.tailKeys.filter(([, file]) => present(file)).map(([key, file, term]) => [term, [key, file]])),
            chunkKeys: kept.chunks.map(([key]) => key),
          }
        : undefined,
    keepState: (state) => (kept.state = state),
  };
  const made = searchIndex(pages, source, { file: (path, text) => (written[path] = text), kept: (path) => keptFiles.push(path) }, limits);
  const output = { ...written };
  for (const path of keptFiles) output[path] = kept.output[path]!;
  const chunkFiles = (JSON.parse(output[SEARCH_ENTRY]!) as { chunks: string[] }).chunks;
  const next: Kept = { state: kept.state, stateId: made.stateId, output, tailKeys: made.tailKeys, chunks: made.chunkKeys.map((key, i) => [key, chunkFiles[i]!]) };
  return { output, written, keptFiles, read, counted, next, chunkKeys: made.chunkKeys };
}

/** The paths whose text differs between two sets of index files, or that only one has: a short failure message, not two indexes. */
const differing = (actual: Record<string, string>, expected: Record<string, string>) => [...new Set([...Object.keys(actual), ...Object.keys(expected)])].filter((path) => actual[path] !== expected[path]).sort();
const shardsOf = (files: Record<string, string> | string[]) => (Array.isArray(files) ? files : Object.keys(files)).filter((path) => /\/t-[^/]+$/.test(path));
const tailsOf = (files: Record<string, string> | string[]) => (Array.isArray(files) ? files : Object.keys(files)).filter((path) => /\/p-[^/]+$/.test(path));

/** Edits of a site, each applied to the site the one before left, in order. */
const EDITS: [what: string, edit: (pages: SearchInput[]) => SearchInput[]][] = [
  ['a sentence added to a section', (pages) => pages.map((page, i) => (i === 121 ? { ...page, blocks: page.blocks.map((block, b) => (b === 1 ? { ...block, text: `${block.text} Replace the battery before the race.` } : block)) } : page))],
  ['nothing', (pages) => pages],
  ['words no other page has, one starting a shard of its own', (pages) => pages.map((page, i) => (i === 7 ? { ...page, blocks: [{ ...page.blocks[0]!, text: `${page.blocks[0]!.text} Xylophone zyzzyva.` }, ...page.blocks.slice(1)] } : page))],
  ['those words removed again: the terms are in no page any more', (pages) => pages.map((page, i) => (i === 7 ? { ...page, blocks: [{ ...page.blocks[0]!, text: page.blocks[0]!.text.replace(' Xylophone zyzzyva.', '') }, ...page.blocks.slice(1)] } : page))],
  ['a heading renamed (its anchor too)', (pages) => pages.map((page, i) => (i === 201 ? { ...page, blocks: page.blocks.map((block, b) => (b === 1 ? { ...block, anchor: 'renamed', heading: 'Renamed part' } : block)) } : page))],
  ['a page retitled', (pages) => pages.map((page, i) => (i === 55 ? { ...page, title: 'Finish line runbook' } : page))],
  ['a page moved to another section', (pages) => pages.map((page, i) => (i === 56 ? { ...page, section: 'Race › Zone 1' } : page))],
  ['a page given another route', (pages) => pages.map((page, i) => (i === 57 ? { ...page, route: '/race/finish' } : page))],
  ['a section added to a page (every later document number moves)', (pages) => pages.map((page, i) => (i === 300 ? { ...page, blocks: [...page.blocks, { anchor: 'spares', heading: 'Spares', text: 'Spare beacons live in the blue crate.' }] } : page))],
  ['a page removed', (pages) => pages.filter((_, i) => i !== 10)],
  ['a page added', (pages) => [...pages.slice(0, 30), { route: '/race/new', title: 'New station', section: 'Race › Zone 0', blocks: [{ text: 'A new station with its own beacon.' }] }, ...pages.slice(30)]],
  ['two pages swapped', (pages) => pages.map((page, i) => (i === 3 ? pages[4]! : i === 4 ? pages[3]! : page))],
  ['a long page added: the average document length moves a step', (pages) => [...pages, { route: '/race/long', title: 'Long', section: 'Race › Zone 0', blocks: [{ text: 'lap '.repeat(60000) }] }]],
  ['a sentence added to the long page', (pages) => pages.map((page) => (page.route === '/race/long' ? { ...page, blocks: [{ text: `${page.blocks[0]!.text} One more lap.` }] } : page))],
  ['a sentence added to a section again', (pages) => pages.map((page, i) => (i === 122 ? { ...page, blocks: page.blocks.map((block, b) => (b === 0 ? { ...block, text: `${block.text} Check the antenna cable.` } : block)) } : page))],
  ['the last page removed: the last chunk ends earlier, its other pages where they were', (pages) => pages.slice(0, -1)],
  ['the last two pages removed', (pages) => pages.slice(0, -2)],
];

/** The pages whose documents are in the chunk files of `files` (`d-…`). */
const chunkPages = (files: Record<string, string>) => new Set(Object.entries(files).flatMap(([path, text]) => (/\/d-[^/]+$/.test(path) ? Object.keys((JSON.parse(text) as { pages: Record<string, unknown> }).pages).map(Number) : [])));

describe('an index made from the previous index\'s state', () => {
  it('is the index made from nothing after every kind of edit, and reads only the pages that changed', () => {
    let pages = site();
    let kept: Kept = NOTHING;
    kept = build(pages, kept).next;
    expect(kept.state?.pages.length).toBe(400);
    for (const [what, edit] of EDITS) {
      const before = pages;
      pages = edit(pages);
      const identity = (page: SearchInput) => JSON.stringify(page);
      const known = new Set(before.map(identity));
      const changed = pages.flatMap((page, i) => (known.has(identity(page)) ? [] : [i]));
      const made = build(pages, kept);
      expect(differing(made.output, searchIndexFiles(pages)), what).toEqual([]);
      // A chunk the index knew again has the key it would have been given from nothing.
      expect(made.chunkKeys, what).toEqual(build(pages, NOTHING).chunkKeys);
      // Only the chunks made again are read: a chunk at its place, of the same pages, is kept by its known key.
      expect([...made.read].sort((a, b) => a - b), what).toEqual([...chunkPages(made.written)].sort((a, b) => a - b));
      // Only the changed pages are counted; the others come from the state (their text is read only for a chunk not kept).
      expect([...made.counted].sort((a, b) => a - b), what).toEqual(changed);
      kept = made.next;
    }
  });

  it('is the index made from nothing when the postings it takes from the state pass what it may hold', () => {
    const pages = site();
    const first = build(pages, NOTHING);
    const edited = EDITS[0]![1](pages);
    const postings = first.next.state!.docTerms.length;
    // Past the limit after a few pages, in the middle, and just before the end: read again from there, no state kept.
    for (const heldPostings of [50, Math.floor(postings / 2), postings - 10]) {
      const made = build(edited, first.next, { heldPostings });
      expect(differing(made.output, searchIndexFiles(edited)), `${heldPostings}`).toEqual([]);
      expect(made.next.stateId).toBeUndefined();
    }
  });

  it('keeps the shards and tails an edit of a few words did not touch, without writing them again', () => {
    const pages = site();
    const first = build(pages, NOTHING);
    expect(tailsOf(first.output).length).toBeGreaterThan(2);
    const edited = EDITS[0]![1](pages);
    const made = build(edited, first.next);
    expect(differing(made.output, searchIndexFiles(edited))).toEqual([]);
    // Written: exactly the shards and tails whose text differs (their names hash their text), those of
    // the new terms and of the terms whose weight in that section moved; the rest are kept.
    const fresh = Object.keys(made.output).filter((path) => !(path in first.output));
    for (const files of [shardsOf, tailsOf]) {
      expect(files(made.written).sort()).toEqual(files(fresh).sort());
      expect(new Set(files(made.keptFiles)).size).toBe(files(made.output).length - files(fresh).length);
    }
    expect(shardsOf(fresh).length).toBeGreaterThan(0);
    expect(shardsOf(made.keptFiles).length).toBeGreaterThan(0);
    expect(tailsOf(made.keptFiles).length).toBeGreaterThan(0);
  });

  it('keeps nothing of an output whose record names another state, nor a shard the output lost', () => {
    const pages = site();
    const first = build(pages, NOTHING);
    const edited = EDITS[0]![1](pages);
    // The record of an older index (another state id): the state still spares the counting, no shard is kept.
    const stale = build(edited, { ...first.next, stateId: 'another' });
    expect(differing(stale.output, searchIndexFiles(edited))).toEqual([]);
    expect([...stale.counted]).toEqual([121]);
    expect(shardsOf(stale.keptFiles)).toEqual([]);
    // A shard file removed from the output by hand is written again.
    const lost = shardsOf(first.output).find((path) => !path.includes('/t-b'))!;
    const output = { ...first.next.output };
    delete output[lost];
    const repaired = build(pages, { ...first.next, output });
    expect(differing(repaired.output, searchIndexFiles(pages))).toEqual([]);
    expect(Object.keys(repaired.written)).toContain(lost);
    // A tail the output lost: the shard that names it is made again, its postings placed, with the tail.
    const lostTail = tailsOf(first.output)[0]!;
    const withoutTail = { ...first.next.output };
    delete withoutTail[lostTail];
    const retailed = build(edited, { ...first.next, output: withoutTail });
    expect(differing(retailed.output, searchIndexFiles(edited))).toEqual([]);
    expect(Object.keys(retailed.written)).toContain(lostTail);
    expect(shardsOf(retailed.keptFiles).length).toBeGreaterThan(0);
  });

  it('rounds the average document length to steps of 1/64 of a doubling', () => {
    expect(roundedAverage(100, 10)).toBe(2 ** (Math.round(Math.log2(10) * 64) / 64));
    expect(roundedAverage(1_000_000, 100_000)).toBe(roundedAverage(1_000_015, 100_000));
    expect(roundedAverage(0, 0)).toBe(1);
  });
});

describe('the state file', () => {
  const state = (): IndexState => {
    let kept: IndexState | undefined;
    searchIndex(site().slice(0, 40), { blocks: (page) => site()[page]!.blocks, blocksKey: (page) => `key-${page}`, salt: 'v1', keepState: (made) => (kept = made) }, { file: () => undefined });
    return kept!;
  };

  it('reads back what was written, and nothing under another salt', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'docs-state-')), 'search-state.bin');
    const written = state();
    await writeState(file, written);
    const read = readState(file, 'v1')!;
    expect(read).toEqual(written);
    expect(readState(file, 'v2')).toBeUndefined();
    // Every code unit comes back: accents, an emoji, a lone surrogate (JSON would escape it, UTF-8 would lose it).
    const odd = { ...written, headings: ['Café \ud800 🏁 — één', ...written.headings.slice(1)], names: [...written.names.slice(0, -1), 'zürich'] };
    await writeState(file, odd);
    expect(readState(file, 'v1')).toEqual(odd);
  });

  it('refuses a file cut short, one with a term out of range or twice, and one that is not a state', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'docs-state-')), 'search-state.bin');
    const written = state();
    await writeState(file, written);
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, bytes.length - 100));
    expect(readState(file, 'v1')).toBeUndefined();
    writeFileSync(file, bytes.subarray(100));
    expect(readState(file, 'v1')).toBeUndefined();
    // The first posting's term (after the page and document starts) set past the last term.
    const damaged = Buffer.from(bytes);
    damaged.writeInt32LE(written.names.length, 4 * (written.pageDocs.length + written.docStart.length));
    writeFileSync(file, damaged);
    expect(readState(file, 'v1')).toBeUndefined();
    // A term twice: the ids after it would name other terms.
    await writeState(file, { ...written, names: [written.names[0]!, ...written.names.slice(0, -1)] });
    expect(readState(file, 'v1')).toBeUndefined();
    writeFileSync(file, 'not a state');
    expect(readState(file, 'v1')).toBeUndefined();
    expect(readState(join(file, '..', 'missing.bin'), 'v1')).toBeUndefined();
  });

  it('says the key each page had, by what the page shows, and passes over an identity it cannot read', () => {
    const written = state();
    const pages = site().slice(0, 40);
    const keys = keysOf(written);
    pages.forEach((page, i) => expect(keys.get(shownOf(page))).toBe(`key-${i}`));
    // Identities that a damaged file could hold: the thread that reads them (index-thread.ts) must not end.
    const damaged = keysOf({ ...written, pages: ['["/a","A","S","",not json]', 'no comma', '["/b","B","S","",42]', written.pages[0]!] });
    expect([...damaged.values()]).toEqual(['key-0']);
  });
});
