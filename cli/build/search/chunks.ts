/**
 * The search index's document chunks (search/index.ts): its documents in runs of `CHUNK_SIZE`, each
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

/** Documents per chunk: a query fetches the chunks of the results it shows. */
export const CHUNK_SIZE = 32;

/** Documents `from` to `to` (blocks, in the page's order) of page `page`, in a chunk. */
export interface ChunkPart {
  page: number;
  from: number;
  to: number;
}

export class Chunks {
  /** The chunks' files (below the index's folder), in order. */
  readonly files: string[] = [];
  /** Each chunk's key, `''` for one that has none (see `IndexSource.blocksKey`). */
  readonly keys: string[] = [];
  /** The chunk being filled: its documents as parts of pages. */
  private parts: ChunkPart[] = [];
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
     * (the same pages at the same documents, `parts`, `filled` documents): it is not computed again.
     */
    private readonly knownKey?: (index: number, parts: readonly ChunkPart[], filled: number) => string | undefined,
  ) {}

  /** A page's indexed blocks, read once while its chunk fills. */
  blocksOf(page: number): SearchBlock[] {
    let blocks = this.held.get(page);
    if (!blocks) this.held.set(page, (blocks = indexedBlocks(this.source.blocks(page))));
    return blocks;
  }

  /** Adds document `index` (a block) of `page`, after those added before it. */
  add(page: number, index: number): void {
    const part = this.parts[this.parts.length - 1];
    if (part?.page === page) part.to = index + 1;
    else this.parts.push({ page, from: index, to: index + 1 });
    if (++this.filled === CHUNK_SIZE) this.flush();
  }

  /** Writes the last chunk, partly filled, and lets every page's blocks go. */
  end(): void {
    if (this.filled > 0) this.flush();
    this.held.clear();
  }

  private key(): string {
    const { source, pages } = this;
    if (!source.blocksKey) return '';
    const known = this.knownKey?.(this.files.length, this.parts, this.filled);
    if (known) return known;
    const spec: (string | number)[][] = [];
    for (const { page, from, to } of this.parts) {
      const key = source.blocksKey(page);
      if (!key) return '';
      const { route, title, section, method } = pages[page]!;
      spec.push([page, route, title, section, method ?? '', key, from, to]);
    }
    return hash(`${source.salt ?? ''}\0${JSON.stringify([CHUNK_SIZE, spec])}`);
  }

  private flush(): void {
    const key = this.key();
    const previous = key ? this.source.previousChunk?.(key) : undefined;
    if (previous) {
      this.writer.kept?.(`${SEARCH_DIR}/${previous}`);
      this.files.push(previous);
    } else {
      const chunk: SearchChunk = { pages: {}, docs: [] };
      for (const { page, from, to } of this.parts) {
        const { route, title, section, method } = this.pages[page]!;
        const blocks = this.blocksOf(page);
        // An operation's path, from its page's first block (the chunk's key has the blocks' key).
        const path = method ? blocks.find((block) => block.path)?.path : undefined;
        chunk.pages[page] = { route, title, section, ...(method ? { method } : {}), ...(path ? { path } : {}) };
        for (let index = from; index < to; index++) chunk.docs.push([page, blocks[index]!.anchor ?? '', blocks[index]!.heading ?? '', blocks[index]!.text]);
      }
      this.files.push(this.name(`d-${this.files.length}`, JSON.stringify(chunk)));
    }
    this.keys.push(key);
    // Only the last page can go on in the next chunk.
    const last = this.parts[this.parts.length - 1]!.page;
    for (const page of this.held.keys()) if (page !== last) this.held.delete(page);
    this.parts = [];
    this.filled = 0;
  }
}
