/**
 * Stage 5b, search: the site's search index from every page's search blocks (extract.ts), written as
 * files below `assets/search/` (format in runtime/search/format.ts). Deterministic: the same pages give
 * the same bytes, and each shard or chunk is named by its content hash, so a browser keeps the parts of
 * an index that did not change.
 */
import { hash } from '../../util/hash';
import { TIER, type SearchBlock, type SearchMeta, type SearchPage } from '../../../runtime/search/format';
import { shardOf, terms } from '../../../runtime/search/text';
import { pageTerms, WEIGHT, type PageTerms } from './terms';
import { deltas, Grow, grown, heaviest } from './postings';
import { Chunks, CHUNK_SIZE, SEARCH_DIR } from './chunks';

/** A page as the index takes it. */
export interface SearchInput extends SearchPage {
  blocks: SearchBlock[];
}

/** The index's files as `searchIndex` hands them out. */
export interface SearchIndexWriter {
  /** Takes one file of the index (path below the output folder, text), the entry point last. */
  file: (path: string, text: string) => void;
  /** Hears a file of the previous index the new one keeps as it is (see `IndexSource.previousChunk`). */
  kept?: (path: string) => void;
}

/** Where the index reads its pages from. */
export interface IndexSource {
  /** A page's search blocks (its text), asked for only when the index needs them, once a page. */
  blocks: (page: number) => SearchBlock[];
  /** A page's counted terms, when an earlier build kept them (terms.ts): its text is then not read to count them. */
  terms?: (page: number) => PageTerms | undefined;
  /** Hears the counted terms of a page that had none kept, to keep them. */
  counted?: (page: number, terms: PageTerms) => void;
  /**
   * What a page's blocks are known by (its markdown key). A document chunk whose pages all have one
   * gets a key made of theirs, and one the previous index wrote under the same key is kept as it is.
   */
  blocksKey?: (page: number) => string | undefined;
  /** The file (below `SEARCH_DIR`) of the previous index's chunk with this key, when the output still holds it. */
  previousChunk?: (key: string) => string | undefined;
  /** The same for a posting tail: its key hashes its postings. */
  previousTail?: (key: string) => string | undefined;
  /** What every key is salted with: the generator's version, so that no other version's file is kept. */
  salt?: string;
  /**
   * Resolves once the counts handed to `counted` can be read back through `terms` (the store committed
   * them). Awaited by `searchIndexInSlices` before a second reading of the pages (see `IndexLimits`).
   */
  settle?: () => Promise<void>;
}

/** How much the index holds in memory. */
export interface IndexLimits {
  /**
   * The most postings (a term in a document) the index holds by document while it reads the pages. A
   * site with more (some 7 million at 10,000 pages, 70 million at 100,000) is read twice instead:
   * once to count each term's documents, once to place each posting where it goes, so the index never
   * holds the postings twice (by document, then by term: 0.8 GB of a 100,000-page build's peak). The
   * second reading takes each page's counts from `IndexSource.terms`, or counts its blocks again.
   */
  heldPostings?: number;
}

/** `IndexLimits.heldPostings` unless told otherwise: 16 million, some 130 MB by document. */
const HELD_POSTINGS = 16_000_000;

/** What `searchIndex` returns besides the files. */
export interface SearchIndexMade {
  /** Each document chunk's key (see `IndexSource.blocksKey`), `''` for a chunk that has none; in the order of the entry point's `chunks`. */
  chunkKeys: string[];
  /** Each posting tail's key (see `IndexSource.previousTail`) and file, when the source keeps tails. */
  tailKeys: [key: string, file: string][];
}

/** The index files, by path below the output folder, held in memory (`docs serve`, tests). */
export function searchIndexFiles(pages: SearchInput[]): Record<string, string> {
  const files: Record<string, string> = {};
  searchIndex(pages, { blocks: (i) => pages[i]!.blocks }, { file: (path, text) => (files[path] = text) });
  return files;
}

/** Where the index lives in the output (chunks.ts), and its entry point, the one file whose name does not change with its content. */
export { SEARCH_DIR };
export const SEARCH_ENTRY = `${SEARCH_DIR}/index.json`;

/** BM25's term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;
/** A first letter whose shard would pass this many bytes gets one shard per second letter. */
const SPLIT_BYTES = 48 * 1024;

/**
 * Makes the index of `pages` (read from `source`, in page order) and hands each file to `writer` as
 * soon as it is complete: the document chunks while the pages are read, so the index never holds the
 * site's text, then the term shards, then the entry point.
 */
export function searchIndex(pages: SearchPage[], source: IndexSource, writer: SearchIndexWriter, limits: IndexLimits = {}): SearchIndexMade {
  // A source read twice without waiting for `settle` counts the pages its store has not committed again.
  const steps = indexSteps(pages, source, writer, limits);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `searchIndexFiles` in slices of a few milliseconds, the event loop free between them, for `docs
 * serve`: at 10,000 pages the index takes seconds to make, and a save arriving meanwhile must not wait
 * for it. Resolves to undefined as soon as `superseded()` says a newer index is on its way.
 */
export async function searchIndexFilesInSlices(pages: SearchInput[], superseded: () => boolean, sliceMs = SLICE_MS): Promise<Record<string, string> | undefined> {
  const files: Record<string, string> = {};
  const made = await searchIndexInSlices(pages, { blocks: (i) => pages[i]!.blocks }, { file: (path, text) => (files[path] = text) }, { superseded, sliceMs });
  return made && files;
}

/**
 * `searchIndex` with the event loop let in every `sliceMs`: `docs serve` answers saves meanwhile, and a
 * build's store commits the counts the index hands it (`IndexSource.counted`) as it goes, instead of
 * holding them all until the index is done (at 100,000 pages, hundreds of megabytes). Resolves to
 * undefined as soon as `superseded()` says the index is not wanted any more.
 */
export async function searchIndexInSlices(pages: SearchPage[], source: IndexSource, writer: SearchIndexWriter, { superseded = () => false, sliceMs = SLICE_MS, ...limits }: { superseded?: () => boolean; sliceMs?: number } & IndexLimits = {}): Promise<SearchIndexMade | undefined> {
  const steps = indexSteps(pages, source, writer, limits);
  let slice = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (step.value === SETTLE) await source.settle?.().catch(() => undefined);
    else if (performance.now() - slice < sliceMs) continue;
    await new Promise((resolve) => setImmediate(resolve));
    if (superseded()) return undefined;
    slice = performance.now();
  }
}

/** The longest the index holds the event loop in `docs serve` before it lets a save in. */
const SLICE_MS = 4;
/** Pages between two steps of `indexSteps`, and terms between two steps while the shards are made. */
const PAGES_PER_STEP = 4;
const TERMS_PER_STEP = 256;

/** What `indexSteps` yields before it reads the pages a second time: the source's counts should settle first. */
const SETTLE = 'settle';

/** The index's work in steps (it yields every few pages, documents and terms); the files go to `writer` as in `searchIndex`. */
function* indexSteps(pages: SearchPage[], source: IndexSource, writer: SearchIndexWriter, { heldPostings = HELD_POSTINGS }: IndexLimits): Generator<typeof SETTLE | undefined, SearchIndexMade> {
  // Terms are interned as numbers and every count lives in a typed array: at 10,000 pages the index
  // holds some 140,000 documents and millions of postings, and a Map or an array per document or
  // posting costs more in garbage collection than the counting itself.
  const ids = new Map<string, number>();
  const names: string[] = [];
  let scratch = new Float64Array(1024);
  // Documents by term, counted as the pages are read.
  let df = new Int32Array(1024);
  const touched: number[] = [];
  const intern = (term: string): number => {
    let id = ids.get(term);
    if (id === undefined) {
      ids.set(term, (id = names.length));
      names.push(term);
      if (id >= scratch.length) {
        scratch = grown(scratch, scratch.length * 2);
        df = grown(df, df.length * 2);
      }
    }
    return id;
  };
  const add = (id: number, weight: number): void => {
    if (scratch[id] === 0) touched.push(id);
    scratch[id] = scratch[id]! + weight;
  };
  /**
   * Hands `each` the documents of a page in order, with their terms (`touched`) and weighted counts
   * (`scratch`, by term) and their length; the title's terms count in the first.
   */
  const eachDocument = (pageNumber: number, counted: PageTerms, each: (index: number, length: number) => void): void => {
    const local = counted.terms.map(intern);
    const { counts } = counted;
    let at = 0;
    for (let index = 0; index < counted.anchors.length; index++) {
      let length = counts[at++]!;
      const distinct = counts[at++]!;
      if (index === 0) {
        for (const term of terms(pages[pageNumber]!.title)) {
          add(intern(term), WEIGHT.title);
          length++;
        }
      }
      for (let pair = 0; pair < distinct; pair++, at += 2) add(local[counts[at]!]!, counts[at + 1]!);
      each(index, length);
      for (const id of touched) scratch[id] = 0;
      touched.length = 0;
    }
  };
  let documents = 0;
  let postings = 0;
  // The postings by document while they fit `heldPostings` (see `IndexLimits`).
  let byDocument = true;
  const docTerms = new Grow(Int32Array);
  // A term's weighted count in a document is a sum of the small whole weights of WEIGHT: exact in 32 bits.
  const docTfs = new Grow(Float32Array);
  const docStart: number[] = [0];
  const lengths: number[] = [];
  let total = 0;
  // Where each document is (page, anchor, heading), for the shards' `docs`; the sections by index.
  const docPage = new Grow(Int32Array);
  const docAnchor: string[] = [];
  const docHeading: string[] = [];
  const sections = new Map<string, number>();
  const name = (prefix: string, text: string): string => {
    const file = `${prefix}.${hash(text).slice(0, 10)}.json`;
    writer.file(`${SEARCH_DIR}/${file}`, text);
    return file;
  };
  const chunks = new Chunks(pages, source, writer, name);
  for (let pageNumber = 0; pageNumber < pages.length; pageNumber++) {
    if (pageNumber % PAGES_PER_STEP === PAGES_PER_STEP - 1) yield;
    const page = pages[pageNumber]!;
    if (!sections.has(page.section)) sections.set(page.section, sections.size);
    let counted = source.terms?.(pageNumber);
    if (!counted) {
      counted = pageTerms(chunks.blocksOf(pageNumber));
      source.counted?.(pageNumber, counted);
    }
    eachDocument(pageNumber, counted, (index, length) => {
      for (const id of touched) {
        df[id]!++;
        if (byDocument) {
          docTerms.push(id);
          docTfs.push(scratch[id]!);
        }
      }
      postings += touched.length;
      if (byDocument) docStart.push(docTerms.length);
      documents++;
      docPage.push(pageNumber);
      docAnchor.push(counted.anchors[index]!);
      docHeading.push(counted.headings[index]!);
      lengths.push(length);
      total += length;
      chunks.add(pageNumber, index);
    });
    if (byDocument && docTerms.length > heldPostings) {
      byDocument = false;
      docTerms.free();
      docTfs.free();
      docStart.length = 0;
    }
  }
  chunks.end();
  yield;

  // Postings by term, in document order: (document, weight 1–99) from each document's BM25 share.
  const average = Math.max(1, total / Math.max(1, lengths.length));
  const termCount = names.length;
  const offset = new Int32Array(termCount + 1);
  for (let id = 0; id < termCount; id++) offset[id + 1] = offset[id]! + df[id]!;
  const fill = offset.slice(0, termCount);
  const postingDoc = new Int32Array(postings);
  const postingWeight = new Uint8Array(postings);
  const normOf = (doc: number): number => K1 * (1 - B + (B * lengths[doc]!) / average);
  const place = (doc: number, norm: number, id: number, tf: number): void => {
    const at = fill[id]!++;
    postingDoc[at] = doc;
    postingWeight[at] = Math.max(1, Math.min(99, Math.round(((tf * (K1 + 1)) / (tf + norm)) * 40)));
  };
  if (byDocument) {
    for (let doc = 0; doc < documents; doc++) {
      if (doc % 1024 === 0) yield;
      const norm = normOf(doc);
      for (let i = docStart[doc]!; i < docStart[doc + 1]!; i++) place(doc, norm, docTerms.at(i), docTfs.at(i));
    }
    // The counts by document are spent: their memory goes before the shards are made.
    docTerms.free();
    docTfs.free();
  } else {
    // The pages read a second time, each posting placed as its document is met (see `IndexLimits`).
    yield SETTLE;
    let doc = 0;
    for (let pageNumber = 0; pageNumber < pages.length; pageNumber++) {
      if (pageNumber % PAGES_PER_STEP === PAGES_PER_STEP - 1) yield;
      const counted = source.terms?.(pageNumber) ?? pageTerms(source.blocks(pageNumber));
      eachDocument(pageNumber, counted, () => {
        const norm = normOf(doc);
        for (const id of touched) place(doc, norm, id, Math.fround(scratch[id]!));
        doc++;
      });
    }
    // Both readings must have met the same pages: a posting out of place would be a wrong index.
    if (doc !== documents || names.length !== termCount || fill.some((at, id) => at !== offset[id + 1])) throw new Error('The search index read different pages the second time: build again.');
  }

  // Shards by first letter, split by the second where one would be large.
  yield;
  // Terms in code-unit order: the default sort of strings, several times faster than a comparator.
  const order = [...names].sort().map((term) => ids.get(term)!);
  yield;
  const firstBytes = new Map<string, number>();
  for (const id of order) {
    const first = shardOf(names[id]!, NONE);
    firstBytes.set(first, (firstBytes.get(first) ?? 0) + names[id]!.length + Math.min(df[id]!, TIER) * 6);
  }
  const split = new Set([...firstBytes].filter(([, bytes]) => bytes > SPLIT_BYTES).map(([first]) => first));
  // Each shard's terms, in term order; a shard's text is made and handed out one shard at a time, so
  // the index never holds the text of every posting (at 100,000 pages, hundreds of megabytes).
  const shardTerms = new Map<string, number[]>();
  for (const id of order) {
    const key = shardOf(names[id]!, split);
    let list = shardTerms.get(key);
    if (!list) shardTerms.set(key, (list = []));
    list.push(id);
  }
  const meta: SearchMeta = { version: 1, documents, shards: {}, split: [...split].sort(), chunks: chunks.files, chunkSize: CHUNK_SIZE, sections: [...sections.keys()] };
  // A tail is named by its postings' bytes before its text is made: one the previous index wrote with
  // the same postings is kept (at 10,000 pages the tails are 20 MB of text, most of it unchanged by an edit).
  const tailKeys: [key: string, file: string][] = [];
  const tailFile = (key: string, positions: number[]): string => {
    let tailKey = '';
    if (source.previousTail) {
      const pairs = new Int32Array(positions.length * 2);
      positions.forEach((at, i) => ((pairs[2 * i] = postingDoc[at]!), (pairs[2 * i + 1] = postingWeight[at]!)));
      tailKey = hash(`${source.salt ?? ''}\0${key}`, new Uint8Array(pairs.buffer));
      const previous = source.previousTail(tailKey);
      if (previous) {
        writer.kept?.(`${SEARCH_DIR}/${previous}`);
        tailKeys.push([tailKey, previous]);
        return previous;
      }
    }
    const file = name(`p-${key}`, deltas(postingDoc, postingWeight, positions));
    if (tailKey) tailKeys.push([tailKey, file]);
    return file;
  };
  let made = 0;
  for (const key of [...shardTerms.keys()].sort()) {
    // The shape of `SearchShard`, written as JSON text directly.
    const shard = { terms: [] as string[], tails: [] as string[], lead: new Set<number>() };
    for (const id of shardTerms.get(key)!) {
      if (made++ % TERMS_PER_STEP === TERMS_PER_STEP - 1) yield;
      const term = names[id]!;
      const from = offset[id]!;
      const to = offset[id + 1]!;
      heaviest(postingDoc, postingWeight, from, to, shard.lead);
      if (to - from <= TIER) {
        shard.terms.push(`${JSON.stringify(term)}:${deltas(postingDoc, postingWeight, from, to)}`);
        continue;
      }
      // The heaviest postings stay in the shard (ties to the earlier document), the rest go to a tail.
      // The weight that cuts at TIER is found by counting (weights are 1–99), so nothing is sorted.
      const histogram = new Int32Array(100);
      for (let at = from; at < to; at++) histogram[postingWeight[at]!]!++;
      let cut = 99;
      let above = 0;
      while (above + histogram[cut]! < TIER) above += histogram[cut--]!;
      let ties = TIER - above;
      const head: number[] = [];
      const tail: number[] = [];
      for (let at = from; at < to; at++) {
        const weight = postingWeight[at]!;
        if (weight > cut || (weight === cut && ties-- > 0)) head.push(at);
        else tail.push(at);
      }
      shard.terms.push(`${JSON.stringify(term)}:${deltas(postingDoc, postingWeight, head)}`);
      shard.tails.push(`${JSON.stringify(term)}:[${JSON.stringify(tailFile(key, tail))},${to - from}]`);
    }
    // Where the terms' heaviest documents are, and their pages: `SearchShard.docs` and `pages`, flat.
    const docs: string[] = [];
    const onPages = new Map<number, string>();
    for (const doc of [...shard.lead].sort((a, b) => a - b)) {
      const pageNumber = docPage.at(doc);
      docs.push(`${doc},${pageNumber},${JSON.stringify(docAnchor[doc])},${JSON.stringify(docHeading[doc])}`);
      if (onPages.has(pageNumber)) continue;
      const { route, title, section, method } = pages[pageNumber]!;
      onPages.set(pageNumber, `${pageNumber},${JSON.stringify(route)},${JSON.stringify(title)},${sections.get(section)},${JSON.stringify(method ?? '')}`);
    }
    const onPagesInOrder = [...onPages.keys()].sort((a, b) => a - b).map((pageNumber) => onPages.get(pageNumber));
    const tails = shard.tails.length > 0 ? `,"tails":{${shard.tails.join(',')}}` : '';
    meta.shards[key] = name(`t-${key}`, `{"terms":{${shard.terms.join(',')}}${tails},"docs":[${docs.join(',')}],"pages":[${onPagesInOrder.join(',')}]}`);
  }
  writer.file(SEARCH_ENTRY, JSON.stringify(meta));
  return { chunkKeys: chunks.keys, tailKeys };
}

const NONE: ReadonlySet<string> = new Set();
