/**
 * Stage 5b, search: the site's search index from every page's search blocks (extract.ts), written as
 * files below `assets/search/` (format in runtime/search/format.ts). Deterministic: the same pages give
 * the same bytes, and each shard or chunk is named by its content hash, so a browser keeps the parts of
 * an index that did not change.
 */
import { hash } from '../../util/hash';
import { TIER, type SearchBlock, type SearchChunk, type SearchMeta, type SearchPage, type SearchShard } from '../../../runtime/search/format';
import { shardOf, terms } from '../../../runtime/search/text';

/** A page as the index takes it. */
export interface SearchInput extends SearchPage {
  blocks: SearchBlock[];
}

/** Where the index lives in the output; `index.json` there is the entry point. */
export const SEARCH_DIR = 'assets/search';

/** Weight of a term by the field it is in: what names a page counts more than what it says. */
const WEIGHT = { title: 8, api: 10, heading: 4, text: 1 };
/** BM25's term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;
/** Documents per chunk: a query fetches the chunks of the results it shows. */
const CHUNK_SIZE = 32;
/** A first letter whose shard would pass this many bytes gets one shard per second letter. */
const SPLIT_BYTES = 48 * 1024;

/** The index files, by path below the output folder. */
export function searchIndexFiles(pages: SearchInput[]): Record<string, string> {
  const postings = new Map<string, number[]>();
  const docs: { page: number; block: SearchBlock }[] = [];
  const weighted: Map<string, number>[] = [];
  const lengths: number[] = [];
  pages.forEach((page, pageNumber) => {
    const blocks = page.blocks.length > 0 ? page.blocks : [{ text: '' }];
    blocks.forEach((block, index) => {
      const counts = new Map<string, number>();
      let length = 0;
      const count = (text: string | undefined, weight: number, identifiers = false): void => {
        if (!text) return;
        for (const term of terms(text, identifiers)) {
          counts.set(term, (counts.get(term) ?? 0) + weight);
          length++;
        }
      };
      if (index === 0) count(page.title, WEIGHT.title);
      count(block.api, WEIGHT.api, true);
      if (!block.continued) count(block.heading, WEIGHT.heading);
      count(block.text, WEIGHT.text);
      docs.push({ page: pageNumber, block });
      weighted.push(counts);
      lengths.push(length);
    });
  });
  const average = lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, lengths.length);
  weighted.forEach((counts, doc) => {
    const norm = K1 * (1 - B + (B * lengths[doc]!) / Math.max(1, average));
    for (const [term, tf] of counts) {
      const share = (tf * (K1 + 1)) / (tf + norm);
      let list = postings.get(term);
      if (!list) postings.set(term, (list = []));
      list.push(doc, Math.max(1, Math.min(99, Math.round(share * 40))));
    }
  });

  // Shards by first letter, split by the second where one would be large.
  const byFirst = new Map<string, string[]>();
  for (const term of [...postings.keys()].sort()) {
    const first = shardOf(term, new Set());
    const list = byFirst.get(first);
    if (list) list.push(term);
    else byFirst.set(first, [term]);
  }
  const split = new Set<string>();
  for (const [first, list] of byFirst) {
    const bytes = list.reduce((sum, term) => sum + term.length + Math.min(postings.get(term)!.length, 2 * TIER) * 3, 0);
    if (bytes > SPLIT_BYTES) split.add(first);
  }
  const files: Record<string, string> = {};
  const name = (prefix: string, text: string): string => {
    const file = `${prefix}.${hash(text).slice(0, 10)}.json`;
    files[`${SEARCH_DIR}/${file}`] = text;
    return file;
  };
  const shards = new Map<string, SearchShard>();
  for (const [term, list] of [...postings].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const key = shardOf(term, split);
    let shard = shards.get(key);
    if (!shard) shards.set(key, (shard = { terms: {} }));
    const pairs: [number, number][] = [];
    for (let i = 0; i < list.length; i += 2) pairs.push([list[i]!, list[i + 1]!]);
    if (pairs.length <= TIER) {
      shard.terms[term] = deltas(pairs);
      continue;
    }
    // The heaviest postings stay in the shard (ties to the earlier document), the rest go to a tail.
    const byWeight = [...pairs].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    const byDoc = (a: [number, number], b: [number, number]): number => a[0] - b[0];
    shard.terms[term] = deltas(byWeight.slice(0, TIER).sort(byDoc));
    shard.tails ??= {};
    shard.tails[term] = [name(`p-${key}`, JSON.stringify(deltas(byWeight.slice(TIER).sort(byDoc)))), pairs.length];
  }

  const meta: SearchMeta = { version: 1, documents: docs.length, shards: {}, split: [...split].sort(), chunks: [], chunkSize: CHUNK_SIZE };
  for (const key of [...shards.keys()].sort()) meta.shards[key] = name(`t-${key}`, JSON.stringify(shards.get(key)));
  for (let start = 0; start < docs.length; start += CHUNK_SIZE) {
    const chunk: SearchChunk = { pages: {}, docs: [] };
    for (const { page, block } of docs.slice(start, start + CHUNK_SIZE)) {
      const { blocks: _blocks, ...shown } = pages[page]!;
      chunk.pages[page] ??= shown;
      chunk.docs.push([page, block.anchor ?? '', block.heading ?? '', block.text]);
    }
    meta.chunks.push(name(`d-${start / CHUNK_SIZE}`, JSON.stringify(chunk)));
  }
  files[`${SEARCH_DIR}/index.json`] = JSON.stringify(meta);
  return files;
}

/** `(document, weight)` pairs in document order as the flat delta-encoded array of the format. */
function deltas(pairs: [number, number][]): number[] {
  const flat: number[] = [];
  let last = 0;
  for (const [doc, weight] of pairs) {
    flat.push(doc - last, weight);
    last = doc;
  }
  return flat;
}
