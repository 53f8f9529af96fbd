/**
 * The search index from kept counts (cli/build/search/terms.ts) and kept document chunks: the same
 * files, byte for byte, as an index made from every page's text, with only the pages and chunks that
 * changed read again.
 */
import { describe, expect, it } from 'vitest';
import type { SearchBlock } from '../../../../runtime/search/format';
import { searchIndex, searchIndexFiles, searchIndexInSlices, type IndexLimits, type IndexSource, type SearchInput } from '../../../../cli/build/search/index';
import { fromStored, pageTerms, storedTerms, type PageTerms, type StoredTerms } from '../../../../cli/build/search/terms';

/** 300 pages of one to five blocks: API lines, headings, continued blocks, accents, pages without text. */
function site(edited = -1): SearchInput[] {
  return Array.from({ length: 300 }, (_, i) => {
    const blocks: SearchBlock[] = [];
    if (i % 50 !== 13) {
      for (let b = 0; b < 1 + (i % 5); b++) {
        blocks.push({
          ...(b > 0 ? { anchor: `part-${b}`, heading: `Part ${b} of Überlingen café ${i % 7}` } : {}),
          ...(b === 0 && i % 4 === 0 ? { api: `POST /api/v${i % 3}/stations/{stationId} reportHeartbeat${i}` } : {}),
          ...(b === 2 ? { continued: true } : {}),
          text: `Page ${i} block ${b}: the lap counter ${'ronde '.repeat(1 + ((i * b) % 6))}reads beacons at station ${i % 11}; één telpost per zone.${i === edited ? ' The zyzzyva is a weevil, added by an edit.' : ''}`,
        });
      }
    }
    return { route: `/race/page-${i}`, title: `Station ${i} — ${i % 9 === 0 ? 'Draaiboek' : 'Runbook'}`, section: `Race › Zone ${i % 4}`, blocks };
  });
}

/** The index of `pages` from `source`, its files by path, and which pages' text it asked for. */
function indexOf(pages: SearchInput[], source: Partial<IndexSource>, limits?: IndexLimits) {
  const files: Record<string, string> = {};
  const kept: string[] = [];
  const read: number[] = [];
  const made = searchIndex(
    pages,
    {
      blocks: (page) => {
        read.push(page);
        return pages[page]!.blocks;
      },
      ...source,
    },
    { file: (path, text) => (files[path] = text), kept: (path) => kept.push(path) },
    limits,
  );
  return { files, kept, read, chunkKeys: made.chunkKeys, tailKeys: made.tailKeys };
}

/** The counts of every page as the store would give them back. */
function storedCounts(pages: SearchInput[]): (PageTerms | undefined)[] {
  return pages.map((page) => fromStored(structuredClone(storedTerms(pageTerms(page.blocks)))));
}

describe('an index made from kept counts', () => {
  it('is the index made from the text, byte for byte, and reads no page text', () => {
    const pages = site();
    const counts = storedCounts(pages);
    const { files, read } = indexOf(pages, { terms: (page) => counts[page] });
    expect(files).toEqual(searchIndexFiles(pages));
    // The chunks still need the text: every page is read for them, once.
    expect(read).toEqual(pages.map((_, i) => i));
  });

  it('hands out the counts of each page it had to count, and uses them for its title and body alike', () => {
    const pages = site();
    const heard = new Map<number, PageTerms>();
    indexOf(pages, { counted: (page, terms) => heard.set(page, terms) });
    expect(heard.size).toBe(300);
    // Titles are not in the counts: a page whose title changed keeps them.
    expect(heard.get(0)!.terms).not.toContain('draaiboek');
    expect(heard.get(0)!.terms).toEqual(expect.arrayContaining(['reportheartbeat0', 'report', 'heartbeat', 'ronde', 'telpost']));
    // A page without text is one empty block.
    expect(heard.get(13)).toMatchObject({ terms: [], anchors: [''], headings: [''] });
    const retitled = pages.map((page, i) => (i === 5 ? { ...page, title: 'Renamed station' } : page));
    expect(indexOf(retitled, { terms: (page) => heard.get(page) }).files).toEqual(searchIndexFiles(retitled));
  });

  it('keeps the previous chunks whose pages did not change, and reads the text of the others only', () => {
    const before = site();
    const keyOf = (pages: SearchInput[]) => (page: number) => JSON.stringify(pages[page]!.blocks);
    const first = indexOf(before, { blocksKey: keyOf(before) });
    expect(first.chunkKeys.every((key) => key.length > 0)).toBe(true);
    const meta = JSON.parse(first.files['assets/search/index.json']!) as { chunks: string[] };
    const previous = new Map(first.chunkKeys.map((key, i) => [key, meta.chunks[i]!]));

    // Page 150 says one sentence more: same blocks, so only its chunk changes.
    const after = site(150);
    const counts = storedCounts(after);
    const second = indexOf(after, { terms: (page) => (page === 150 ? undefined : counts[page]), blocksKey: keyOf(after), previousChunk: (key) => previous.get(key) });
    const fresh = searchIndexFiles(after);
    const written = Object.keys(second.files);
    // Every file of the fresh index is written or kept, with the same bytes.
    expect([...written, ...second.kept].sort()).toEqual(Object.keys(fresh).sort());
    for (const path of written) expect(second.files[path]).toBe(fresh[path]);
    for (const path of second.kept) expect(first.files[path]).toBe(fresh[path]);
    // One chunk written again; the pages read are those of that chunk, each once.
    const chunks = written.filter((path) => /\/d-\d+\./.test(path));
    expect(chunks).toHaveLength(1);
    const chunkPages = Object.keys((JSON.parse(second.files[chunks[0]!]!) as { pages: object }).pages).map(Number);
    expect(chunkPages).toContain(150);
    expect([...second.read].sort((a, b) => a - b)).toEqual(chunkPages);
  });

  it('makes every later chunk again when a page gains a block, and keeps those before it', () => {
    const before = site();
    const keyOf = (pages: SearchInput[]) => (page: number) => JSON.stringify(pages[page]!.blocks);
    const first = indexOf(before, { blocksKey: keyOf(before) });
    const meta = JSON.parse(first.files['assets/search/index.json']!) as { chunks: string[] };
    const previous = new Map(first.chunkKeys.map((key, i) => [key, meta.chunks[i]!]));
    const after = site().map((page, i) => (i === 250 ? { ...page, blocks: [...page.blocks, { anchor: 'more', heading: 'More', text: 'A new block.' }] } : page));
    const counts = storedCounts(after);
    const second = indexOf(after, { terms: (page) => counts[page], blocksKey: keyOf(after), previousChunk: (key) => previous.get(key) });
    const fresh = searchIndexFiles(after);
    expect([...Object.keys(second.files), ...second.kept].sort()).toEqual(Object.keys(fresh).sort());
    for (const path of Object.keys(second.files)) expect(second.files[path]).toBe(fresh[path]);
    expect(second.kept.length).toBeGreaterThan(0);
    expect(Math.min(...second.read)).toBeGreaterThan(200);
  });
});

describe('an index that keeps the previous posting tails', () => {
  const tailsOf = (files: Record<string, string>) => Object.keys(files).filter((path) => /\/p-[^/]+$/.test(path));

  it('keeps every tail whose postings are the same, under the same salt only, and writes the same files', () => {
    const pages = site();
    const fresh = searchIndexFiles(pages);
    expect(tailsOf(fresh).length).toBeGreaterThan(3);
    const first = indexOf(pages, { previousTail: () => undefined, salt: 'v1' });
    expect(first.files).toEqual(fresh);
    const previous = new Map(first.tailKeys.map(([key, file]) => [key, file]));
    // Two terms with the same tail postings share its file.
    expect(new Set(first.tailKeys.map(([, file]) => `assets/search/${file}`))).toEqual(new Set(tailsOf(fresh)));

    const again = indexOf(pages, { previousTail: (key) => previous.get(key), salt: 'v1' });
    expect(new Set(again.kept)).toEqual(new Set(tailsOf(fresh)));
    expect(tailsOf(again.files)).toEqual([]);
    expect({ ...again.files, ...Object.fromEntries(again.kept.map((path) => [path, fresh[path]!])) }).toEqual(fresh);

    // Another generator's tails are never taken, even with the same postings.
    expect(indexOf(pages, { previousTail: (key) => previous.get(key), salt: 'v2' }).kept).toEqual([]);

    // A page edited: the tails that changed are written, the rest kept, and the index is the fresh one.
    const edited = site(150);
    const after = indexOf(edited, { previousTail: (key) => previous.get(key), salt: 'v1' });
    const freshAfter = searchIndexFiles(edited);
    expect(new Set([...Object.keys(after.files), ...after.kept])).toEqual(new Set(Object.keys(freshAfter)));
    for (const path of Object.keys(after.files)) expect(after.files[path]).toBe(freshAfter[path]);
  });
});

describe('an index of more postings than it holds by document', () => {
  // The 300 pages hold some 9,000 postings: 0 reads every page twice, 4,000 switches half-way.
  const limits = [0, 4_000];

  it('is the same index, reading the kept counts a second time and the text once', () => {
    const pages = site();
    const fresh = searchIndexFiles(pages);
    const counts = storedCounts(pages);
    for (const heldPostings of limits) {
      const asked: number[] = [];
      const { files, read } = indexOf(pages, { terms: (page) => (asked.push(page), counts[page]) }, { heldPostings });
      expect(files).toEqual(fresh);
      expect(asked).toEqual([...pages.keys(), ...pages.keys()]);
      expect(read).toEqual([...pages.keys()]);
    }
  });

  it('counts the text again when no counts were kept', () => {
    const pages = site(150);
    for (const heldPostings of limits) {
      const { files, read } = indexOf(pages, {}, { heldPostings });
      expect(files).toEqual(searchIndexFiles(pages));
      expect(read).toEqual([...pages.keys(), ...pages.keys()]);
    }
  });

  it('in slices, reads back the counts it handed out once the source says they settled', async () => {
    // As the build's store: counts handed out are readable only after a commit.
    const pages = site();
    const pending = new Map<number, PageTerms>();
    const committed = new Map<number, PageTerms>();
    let settled = 0;
    const read: number[] = [];
    const files: Record<string, string> = {};
    const source: IndexSource = {
      blocks: (page) => (read.push(page), pages[page]!.blocks),
      terms: (page) => committed.get(page),
      counted: (page, terms) => pending.set(page, fromStored(structuredClone(storedTerms(terms)))!),
      settle: async () => {
        settled++;
        for (const [page, terms] of pending) committed.set(page, terms);
      },
    };
    await searchIndexInSlices(pages, source, { file: (path, text) => (files[path] = text) }, { heldPostings: 0, sliceMs: 1_000 });
    expect(files).toEqual(searchIndexFiles(pages));
    expect(settled).toBe(1);
    // Counted once from the text, then read back from the counts: no page's text is read twice.
    expect(read).toEqual([...pages.keys()]);
  });

  it('refuses to make an index from pages that changed between the two readings', () => {
    const pages = site();
    const counts = storedCounts(pages);
    const changed = storedCounts(site(150));
    let reading = 0;
    const terms = (page: number) => {
      if (page === 0) reading++;
      return (reading === 2 ? changed : counts)[page];
    };
    expect(() => indexOf(pages, { terms }, { heldPostings: 0 })).toThrow(/read different pages the second time/);
  });
});

describe('kept counts read back from the store', () => {
  const good = storedTerms(pageTerms([{ text: 'lap counter' }, { anchor: 'a', heading: 'Beacons', text: 'beacon station' }]));

  it('come back as they were counted', () => {
    expect(fromStored(structuredClone(good))).toEqual(pageTerms([{ text: 'lap counter' }, { anchor: 'a', heading: 'Beacons', text: 'beacon station' }]));
    // Large counts (a page repeating one word) and many terms take more than one byte each.
    const many = pageTerms([{ text: `${'ronde '.repeat(70_000)}${Array.from({ length: 300 }, (_, i) => `term${i}`).join(' ')}` }]);
    expect(many.counts).toContain(70_000);
    const stored = storedTerms(many);
    expect(stored.counts.length).toBeLessThan(many.counts.length * 2);
    expect(fromStored(structuredClone(stored))).toEqual(many);
  });

  it('are refused when they are not laid out as counts (another layout, a damaged entry): the page is counted again', () => {
    const ints = (values: number[]) => storedTerms({ terms: [], anchors: [''], headings: [''], counts: Int32Array.from(values) }).counts;
    const bad: unknown[] = [
      undefined,
      { ...good, counts: 'x' },
      { ...good, counts: good.counts.subarray(0, good.counts.length - 4) },
      { ...good, counts: good.counts.subarray(0, 3) },
      { ...good, anchors: [] },
      { ...good, headings: [''] },
      { ...good, counts: ints([2, 1, 9, 1, 2, 2, 0, 1, 1, 1]) },
      { ...good, counts: ints([2, 1, 0, 0, 2, 2, 0, 1, 1, 1]) },
      { ...good, counts: ints([2, 2, 0, 1, 1, 1, 2, 2, 0, 1, 1, 1, 7]) },
      // A number cut short, and one past 31 bits.
      { ...good, counts: Uint8Array.from([...good.counts, 0x85]) },
      { ...good, counts: Uint8Array.from([...good.counts.subarray(0, good.counts.length - 1), 0xff, 0xff, 0xff, 0xff, 0x7f]) },
    ];
    for (const entry of bad) expect(fromStored(entry as StoredTerms)).toBeUndefined();
  });
});
