/**
 * Stage 5b, search: the site's search index from every page's search blocks (extract.ts), written as
 * files below `assets/search/` (format in runtime/search/format.ts). Deterministic: the same pages give
 * the same bytes, and each shard or chunk is named by its content hash, so a browser keeps the parts of
 * an index that did not change.
 */
import { randomUUID } from 'node:crypto';
import { hash } from '../../util/hash';
import type { SearchBlock, SearchMeta, SearchPage } from '../../../runtime/search/format';
import { terms } from '../../../runtime/search/text';
import { pageTerms, WEIGHT, type PageTerms } from './terms';
import { countRuns, countTerms, DocRuns, Grow, grown, normOf, placeRuns, weightOf } from './postings';
import { Chunks, CHUNK_SIZE, SEARCH_DIR } from './chunks';
import { keptPart, madeTerms, planShards, reusedTerms, shardSteps, splitOf, type Placed, type Reused, type ShardPlan, type Unchanged } from './shards';
import { changedTerms, keepState, pageIdentity, roundedAverage, type IndexState, type PreviousIndex } from './state';
import { DocumentNumbers, slotsOf, slotStarts } from './numbers';

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
  /** The text of a file of the previous index (below `SEARCH_DIR`) as the output holds it unchanged, for a shard made again to take its unchanged terms' entries from (shards.ts `reusedTerms`). */
  previousShard?: (file: string) => string | undefined;
  /** What every key is salted with: the generator's version, so that no other version's file is kept. */
  salt?: string;
  /**
   * Resolves once the counts handed to `counted` can be read back through `terms` (the store committed
   * them). Awaited by `searchIndexInSlices` before a second reading of the pages (see `IndexLimits`).
   */
  settle?: () => Promise<void>;
  /** The state the previous index kept (state.ts), if there is one. */
  previousState?: () => IndexState | undefined;
  /** What of the previous output's index may be kept, when its record names the state `id` (state.ts). */
  previousIndex?: (id: string) => PreviousIndex | undefined;
  /** Keeps this index's state for the next build; undefined when it keeps none (it held too many postings). */
  keepState?: (state: IndexState | undefined) => void;
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
  /** Each posting tail's key (see `IndexSource.previousTail`), file and term, when the source keeps tails. */
  tailKeys: [key: string, file: string, term: string][];
  /** The id of the state handed to `IndexSource.keepState`, when one was. */
  stateId?: string;
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
/** Pages between two steps of `indexSteps`. */
const PAGES_PER_STEP = 4;

/** What `indexSteps` yields before it reads the pages a second time: the source's counts should settle first. */
const SETTLE = 'settle';

/** The index's work in steps (it yields every few pages, documents and terms); the files go to `writer` as in `searchIndex`. */
function* indexSteps(pages: SearchPage[], source: IndexSource, writer: SearchIndexWriter, { heldPostings: maxHeld = HELD_POSTINGS }: IndexLimits): Generator<typeof SETTLE | undefined, SearchIndexMade> {
  // Terms are interned as numbers and every count lives in a typed array: at 10,000 pages the index
  // holds some 140,000 documents and millions of postings, and a Map or an array per document or
  // posting costs more in garbage collection than the counting itself.
  const ids = new Map<string, number>();
  const names: string[] = [];
  let scratch = new Float64Array(1024);
  // Documents by term, counted as the pages are read, and the bytes their numbers will take (postings.ts).
  let df = new Int32Array(1024);
  const runs = new DocRuns(1024);
  const touched: number[] = [];
  const intern = (term: string): number => {
    let id = ids.get(term);
    if (id === undefined) {
      ids.set(term, (id = names.length));
      names.push(term);
      if (id >= scratch.length) {
        scratch = grown(scratch, scratch.length * 2);
        df = grown(df, df.length * 2);
        runs.grow(df.length);
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
        for (const term of terms(pages[pageNumber]!.title, { pairs: true })) {
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
  // The previous index's state (state.ts): its terms keep their ids, its unchanged pages are taken from it.
  const state = source.previousState?.();
  for (const term of state?.names ?? []) intern(term);
  const identities = source.keepState ? pages.map((page, i) => pageIdentity(page, source.blocksKey?.(i))) : [];
  const statePages = new Map(state?.pages.map((identity, i) => [identity, i]));
  const copiedFrom = new Int32Array(pages.length).fill(-1);
  const pageDocs = new Int32Array(pages.length + 1);
  // Each page's first document number, and one more entry, the number of them: a page's documents are
  // numbered with room to grow (numbers.ts `slotsOf`), the numbers between its last and the next page's
  // first left empty.
  const pageSlots = new Int32Array(pages.length + 1);
  const stateSlots = state && slotStarts(state.pageDocs, state.pages.length);
  let documents = 0;
  let postings = 0;
  // The postings by document while they fit `heldPostings` (see `IndexLimits`).
  let byDocument = true;
  // Room for about as many as the state's and a little more (a site changes a little between two
  // builds): an array that has to grow by one more posting is copied whole.
  const expected = state ? Math.ceil(state.docTerms.length * 1.01) + 65_536 : 0;
  const docTerms = new Grow(Int32Array, expected);
  // A term's weighted count in a document is a sum of the small whole weights of WEIGHT: exact in 32 bits.
  const docTfs = new Grow(Float32Array, expected);
  const docStart: number[] = [0];
  /** The run of the state's postings (`from`–`to`) the pages taken from it add next, copied at once. */
  const copy = { from: 0, to: 0 };
  const flushCopy = (): void => {
    if (state && copy.to > copy.from) {
      docTerms.append(state.docTerms.subarray(copy.from, copy.to));
      docTfs.append(state.docTfs.subarray(copy.from, copy.to));
    }
    copy.from = copy.to;
  };
  /** The postings held by document, those of the run to be copied included. */
  const heldPostings = (): number => docTerms.length + copy.to - copy.from;
  const lengths = new Grow(Int32Array, state?.lengths.length);
  let total = 0;
  // Where each document is (page, anchor, heading), for the shards' `docs`; the sections by index.
  const docPage = new Grow(Int32Array, state?.lengths.length);
  const docAnchor: string[] = [];
  const docHeading: string[] = [];
  const sections = new Map<string, number>();
  const name = (prefix: string, text: string): string => {
    const file = `${prefix}.${hash(text).slice(0, 10)}.json`;
    writer.file(`${SEARCH_DIR}/${file}`, text);
    return file;
  };
  /** Counts in a document, after its terms were placed in `docTerms` (or not: see `byDocument`), up to `end`. */
  const documentDone = (pageNumber: number, index: number, length: number, anchor: string, heading: string, end = docTerms.length): void => {
    if (byDocument) docStart.push(end);
    documents++;
    docPage.push(pageNumber);
    docAnchor.push(anchor);
    docHeading.push(heading);
    lengths.push(length);
    total += length;
    chunks.add(pageNumber, index);
  };
  // The previous output's index, when it was made with this state.
  const previous = state && source.previousIndex?.(state.id);
  /**
   * A chunk's key is the previous index's chunk's at the same place when each page with document
   * numbers in it was taken from the state as the same page at the same numbers, and it holds as many
   * numbers as that chunk did (the last chunk may end elsewhere): the same pages, titles, sections,
   * blocks and places.
   */
  const knownKey = (index: number, touched: readonly number[], filled: number): string | undefined => {
    const key = previous?.chunkKeys?.[index];
    if (!state || !stateSlots || typeof key !== 'string' || !key) return undefined;
    const first = index * CHUNK_SIZE;
    if (filled !== Math.min(CHUNK_SIZE, stateSlots[state.pages.length]! - first)) return undefined;
    return touched.every((page) => copiedFrom[page] === page && pageSlots[page] === stateSlots[page]) ? key : undefined;
  };
  const chunks = new Chunks(pages, source, writer, name, knownKey);
  for (let pageNumber = 0; pageNumber < pages.length; pageNumber++) {
    if (pageNumber % PAGES_PER_STEP === PAGES_PER_STEP - 1) yield;
    const page = pages[pageNumber]!;
    if (!sections.has(page.section)) sections.set(page.section, sections.size);
    pageDocs[pageNumber] = documents;
    const identity = identities[pageNumber];
    const from: number | undefined = byDocument && identity !== undefined ? statePages.get(identity) : undefined;
    if (state && from !== undefined) {
      // Its documents as the state has them: the same page gives the same documents.
      copiedFrom[pageNumber] = from;
      const { docStart: starts, docTerms: postingTerms } = state;
      const first = state.pageDocs[from]!;
      const last = state.pageDocs[from + 1]!;
      // The page's postings are one run in the state, and most often the run after the last page's:
      // they are copied with it (`copy`), their terms' documents counted in now. Their bytes by term
      // (`runs`) are counted later, for the terms whose postings the index places (see `byDocument`).
      if (starts[first] !== copy.to) {
        flushCopy();
        copy.from = copy.to = starts[first]!;
      }
      const shift = heldPostings() - starts[first]!;
      countTerms(df, postingTerms, starts[first]!, starts[last]!);
      copy.to = starts[last]!;
      postings += starts[last]! - starts[first]!;
      for (let doc = first; doc < last; doc++) documentDone(pageNumber, doc - first, state.lengths[doc]!, state.anchors[doc]!, state.headings[doc]!, starts[doc + 1]! + shift);
    } else {
      flushCopy();
      let counted = source.terms?.(pageNumber);
      if (!counted) {
        counted = pageTerms(chunks.blocksOf(pageNumber));
        source.counted?.(pageNumber, counted);
      }
      const { anchors, headings } = counted;
      eachDocument(pageNumber, counted, (index, length) => {
        for (const id of touched) {
          df[id]!++;
          if (!byDocument) runs.count(id, documents);
          else {
            docTerms.push(id);
            docTfs.push(scratch[id]!);
          }
        }
        postings += touched.length;
        documentDone(pageNumber, index, length, anchors[index]!, headings[index]!);
      });
    }
    const count = documents - pageDocs[pageNumber]!;
    pageSlots[pageNumber + 1] = pageSlots[pageNumber]! + slotsOf(count);
    chunks.skip(pageNumber, slotsOf(count) - count);
    if (byDocument && heldPostings() > maxHeld) {
      // The postings held so far are counted into `runs` before they go; the rest as they are read.
      flushCopy();
      countRuns(runs, { starts: docStart, terms: docTerms.view(), wanted: undefined }, 0, documents);
      byDocument = false;
      docTerms.free();
      docTfs.free();
      docStart.length = 0;
    }
  }
  flushCopy();
  pageDocs[pages.length] = documents;
  chunks.end();
  yield;

  // Postings by term, in document order: (document, weight 1–99) from each document's BM25 share.
  const average = roundedAverage(total, documents);
  const termCount = names.length;
  const offset = new Int32Array(termCount + 1);
  for (let id = 0; id < termCount; id++) offset[id + 1] = offset[id]! + df[id]!;
  const fill = offset.slice(0, termCount);
  const postingWeight = new Uint8Array(postings);
  let stateId: string | undefined;
  let unchanged: Unchanged | undefined;
  const split = splitOf({ names, df });
  let plan: ShardPlan | undefined;
  let reused: Reused | undefined;
  if (byDocument) {
    const postingTerms = docTerms.view();
    const postingTfs = docTfs.view();
    const now: IndexState = { id: randomUUID(), salt: source.salt ?? '', names, pages: identities as string[], pageDocs, docStart: Int32Array.from(docStart), docTerms: postingTerms, docTfs: postingTfs, lengths: lengths.view(), anchors: docAnchor, headings: docHeading, average };
    // What of the previous index is known to be unchanged: every term's postings but those the pages not taken from the state changed.
    const changed = state && previous && changedTerms(state, now, copiedFrom);
    if (previous && changed) unchanged = keptPart({ previous, changed }, split, sections);
    // Only the postings of the shards to be made again are placed: a kept shard's terms need none.
    plan = planShards(names, df, split, unchanged);
    reused = unchanged && source.previousShard ? reusedTerms(plan, { names, df }, unchanged, source.previousShard) : undefined;
    const wanted = unchanged ? madeTerms(plan, termCount, reused) : undefined;
    // Their documents' bytes by term first (`runs`), then the postings themselves.
    const byDoc = { starts: now.docStart, terms: postingTerms, tfs: postingTfs, lengths: now.lengths, wanted };
    for (let doc = 0; doc < documents; doc += DOCS_PER_STEP) {
      yield;
      countRuns(runs, byDoc, doc, Math.min(documents, doc + DOCS_PER_STEP));
    }
    runs.allocate(termCount);
    for (let doc = 0; doc < documents; doc += DOCS_PER_STEP) {
      yield;
      placeRuns({ runs, fill, weights: postingWeight, average }, byDoc, doc, Math.min(documents, doc + DOCS_PER_STEP));
    }
    // The counts by document are kept for the next build, then their memory goes before the shards are made.
    if (keepState(source, now, df)) stateId = now.id;
    docTerms.free();
    docTfs.free();
  } else {
    // The pages read a second time, each posting placed as its document is met (see `IndexLimits`).
    source.keepState?.(undefined);
    runs.allocate(termCount);
    yield SETTLE;
    let doc = 0;
    for (let pageNumber = 0; pageNumber < pages.length; pageNumber++) {
      if (pageNumber % PAGES_PER_STEP === PAGES_PER_STEP - 1) yield;
      const counted = source.terms?.(pageNumber) ?? pageTerms(source.blocks(pageNumber));
      eachDocument(pageNumber, counted, () => {
        const norm = normOf(lengths.at(doc), average);
        for (const id of touched) {
          runs.place(id, doc);
          postingWeight[fill[id]!++] = weightOf(Math.fround(scratch[id]!), norm);
        }
        doc++;
      });
    }
    // Both readings must have met the same pages: a posting out of place would be a wrong index.
    if (doc !== documents || names.length !== termCount || fill.some((at, id) => at !== offset[id + 1]) || !runs.placed(termCount)) throw new Error('The search index read different pages the second time: build again.');
  }
  yield;

  // The index's files number documents as pages place them (`pageSlots`).
  const numbers = new DocumentNumbers(pageDocs, pageSlots);
  const docOf = (slot: number): number => numbers.documentOf(slot);
  const termDocs = (id: number): Int32Array => numbers.numbered(runs.docs(id, offset[id + 1]! - offset[id]!));
  const placed: Placed = { pages, names, df, offset, termDocs, postingWeight, docPage: (slot) => docPage.at(docOf(slot)), docAnchor: (slot) => docAnchor[docOf(slot)]!, docHeading: (slot) => docHeading[docOf(slot)]!, sections };
  const shards = yield* shardSteps(placed, split, plan ?? planShards(names, df, split, undefined), source, writer, name, unchanged, reused);
  const meta: SearchMeta = { version: 1, documents: numbers.count, shards: shards.shards, split: shards.split, chunks: chunks.files, chunkSize: CHUNK_SIZE, sections: [...sections.keys()] };
  writer.file(SEARCH_ENTRY, JSON.stringify(meta));
  return { chunkKeys: chunks.keys, tailKeys: shards.tailKeys, ...(stateId ? { stateId } : {}) };
}

/** Documents between two steps while the postings held by document are placed by term. */
const DOCS_PER_STEP = 2048;
