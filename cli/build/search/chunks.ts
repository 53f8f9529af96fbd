/**
 * The search index's document chunks (search/index.ts): its document numbers in runs of `CHUNK_SIZE`
 * (a number no document has, left for a page to grow into, holds null: numbers.ts `slotsOf`), each
 * chunk written as soon as it fills — so the index never holds the site's text — or, when its key
 * (its pages, their routes, titles, sections, blocks' keys and ranges) is that of a chunk of the
 * previous index the output still holds, that file kept without its pages' text being read.
 */
import { hash } from '../../util/hash';
import type { SearchBlock, SearchChunk, SearchPage } from '../../../runtime/search/format';
import { indexedBlocks } from './terms';
import type { IndexSource, SearchIndexWriter } from './index';

/** Where the index lives in the output. */
export const SEARCH_DIR = 'assets/search';

/**
 * Document numbers per chunk: a query fetches the chunks of the results it shows. 40, for some 32
 * documents with the pages' room (numbers.ts `slotsOf`), as many as a chunk held before the room.
 */
export const CHUNK_SIZE = 40;

/** Documents `from` to `to` (blocks, in the page's order) of page `page`, in a chunk from its place `at` on. */
export interface ChunkPart {
  page: number;
  from: number;
  to: number;
  at: number;
}

export class Chunks {
  /** The chunks' files (below the index's folder), in order. */
  readonly files: string[] = [];
  /** Each chunk's key, `''` for one that has none (see `IndexSource.blocksKey`). */
  readonly keys: string[] = [];
  /** The chunk being filled: its documents as parts of pages, and the pages with numbers in it (documents or room), in order. */
  private parts: ChunkPart[] = [];
  private touched: number[] = [];
  private filled = 0;
  /** The blocks of the pages of the chunk being filled, read when first needed. */
  private readonly held = new Map<number, SearchBlock[]>();

  constructor(
    private readonly pages: SearchPage[],
    private readonly source: IndexSource,
    private readonly writer: SearchIndexWriter,
    /** Hands out a file of the index named by its text's hash; returns its name. */
    private readonly name: (prefix: string, text: string) => string,
    /**
     * The key chunk `index` had in the previous index, when the index knows it is that chunk again
     * (the same pages at the same numbers, `touched`, over `filled` numbers): it is not computed again.
     */
    private readonly knownKey?: (index: number, touched: readonly number[], filled: number) => string | undefined,
  ) {}

  /** A page's indexed blocks, read once while its chunk fills. */
  blocksOf(page: number): SearchBlock[] {
    let blocks = this.held.get(page);
    if (!blocks) this.held.set(page, (blocks = indexedBlocks(this.source.blocks(page))));
    return blocks;
  }

  /** Adds document `index` (a block) of `page`, after those added before it. */
  add(page: number, index: number): void {
    this.touch(page);
    const part = this.parts[this.parts.length - 1];
    if (part?.page === page && part.to === index && part.at + part.to - part.from === this.filled) part.to = index + 1;
    else this.parts.push({ page, from: index, to: index + 1, at: this.filled });
    if (++this.filled === CHUNK_SIZE) this.flush();
  }

  /** Leaves `count` numbers after the documents of `page` without one (room for the page to grow). */
  skip(page: number, count: number): void {
    for (let left = count; left > 0; ) {
      this.touch(page);
      const taken = Math.min(left, CHUNK_SIZE - this.filled);
      this.filled += taken;
      left -= taken;
      if (this.filled === CHUNK_SIZE) this.flush();
    }
  }

  private touch(page: number): void {
    if (this.touched[this.touched.length - 1] !== page) this.touched.push(page);
  }

  /** Writes the last chunk, partly filled, and lets every page's blocks go. */
  end(): void {
    if (this.filled > 0) this.flush();
    this.held.clear();
  }

  private key(): string {
    const { source, pages } = this;
    if (!source.blocksKey) return '';
    const known = this.knownKey?.(this.files.length, this.touched, this.filled);
    if (known) return known;
    const spec: (string | number)[][] = [];
    for (const { page, from, to, at } of this.parts) {
      const key = source.blocksKey(page);
      if (!key) return '';
      const { route, title, section, method } = pages[page]!;
      spec.push([page, route, title, section, method ?? '', key, from, to, at]);
    }
    return hash(`${source.salt ?? ''}\0${JSON.stringify([CHUNK_SIZE, this.filled, spec])}`);
  }

  private flush(): void {
    const key = this.key();
    const previous = key ? this.source.previousChunk?.(key) : undefined;
    if (previous) {
      this.writer.kept?.(`${SEARCH_DIR}/${previous}`);
      this.files.push(previous);
    } else {
      const chunk: SearchChunk = { pages: {}, docs: new Array<SearchChunk['docs'][number]>(this.filled).fill(null) };
      for (const { page, from, to, at } of this.parts) {
        const { route, title, section, method } = this.pages[page]!;
        const blocks = this.blocksOf(page);
        // An operation's path, from its page's first block (the chunk's key has the blocks' key).
        const path = method ? blocks.find((block) => block.path)?.path : undefined;
        chunk.pages[page] = { route, title, section, ...(method ? { method } : {}), ...(path ? { path } : {}) };
        for (let index = from; index < to; index++) chunk.docs[at + index - from] = [page, blocks[index]!.anchor ?? '', blocks[index]!.heading ?? '', blocks[index]!.text];
      }
      this.files.push(this.name(`d-${this.files.length}`, JSON.stringify(chunk)));
    }
    this.keys.push(key);
    // Only the last page can go on in the next chunk.
    const last = this.touched[this.touched.length - 1];
    for (const page of this.held.keys()) if (page !== last) this.held.delete(page);
    this.parts = [];
    this.touched = [];
    this.filled = 0;
  }
}
