/**
 * The search index's term shards (search/index.ts): each term's postings, placed by term, written as
 * the shard of its first letter (split by the second where one would be large), the heaviest `TIER`
 * postings of a common term in the shard and the rest in a tail file of its own.
 *
 * A shard none of whose terms changed since the previous index (`Unchanged`) is kept as the output
 * holds it, and an unchanged term's tail under the key it had; otherwise a tail is named by a hash of
 * its postings before its text is made, and one the previous index wrote with the same postings kept.
 */
import { hash } from '../../util/hash';
import { TIER, type SearchMeta, type SearchPage, type SearchShard } from '../../../runtime/search/format';
import { shardOf } from '../../../runtime/search/text';
import { deltas, heaviest } from './postings';
import { SEARCH_DIR } from './chunks';
import type { IndexSource, SearchIndexWriter } from './index';
import type { PreviousIndex } from './state';

/** A first letter whose shard would pass this many bytes gets one shard per second letter. */
const SPLIT_BYTES = 48 * 1024;
/** Terms between two steps while the shards are made. */
const TERMS_PER_STEP = 256;

/** The index's postings by term, and what the shards say of their documents. */
export interface Placed {
  pages: SearchPage[];
  /** Terms by id, and their number of documents (a term of none is in no shard). */
  names: string[];
  df: Int32Array;
  /** Term `id`'s postings are from `offset[id]` to `offset[id + 1]`, in document order. */
  offset: Int32Array;
  /** Term `id`'s documents by their numbers in the index's files, in order (a view valid until the next call), and every posting's weight. */
  termDocs: (id: number) => Int32Array;
  postingWeight: Uint8Array;
  /** The page, anchor and heading of the document of each number. */
  docPage: (doc: number) => number;
  docAnchor: (doc: number) => string;
  docHeading: (doc: number) => string;
  /** Each section's index in the entry point's `sections`. */
  sections: Map<string, number>;
}

/** What the shards may keep of the previous index: its record, and which terms' postings are not known to be the same. */
export interface Unchanged {
  previous: PreviousIndex;
  changed: Uint8Array;
}

/** What `shardSteps` made. */
export interface ShardsMade {
  shards: SearchMeta['shards'];
  split: string[];
  /** Each tail's key, file and term. */
  tailKeys: [key: string, file: string, term: string][];
}

/** The first letters whose shard is split, for the terms of `placed` (those in a document). */
export function splitOf({ names, df }: Pick<Placed, 'names' | 'df'>): Set<string> {
  const firstBytes = new Map<string, number>();
  for (let id = 0; id < names.length; id++) {
    if (df[id] === 0) continue;
    const first = shardOf(names[id]!, NONE);
    firstBytes.set(first, (firstBytes.get(first) ?? 0) + names[id]!.length + Math.min(df[id]!, TIER) * 6);
  }
  return new Set([...firstBytes].filter(([, bytes]) => bytes > SPLIT_BYTES).map(([first]) => first));
}

/**
 * What of the previous index the shards may keep: `offered` when the previous index was split and
 * numbered its sections as this one is (`split`, `sections`), otherwise nothing.
 */
export function keptPart(offered: Unchanged, split: ReadonlySet<string>, sections: Map<string, number>): Unchanged | undefined {
  return offered.previous.split.join() === [...split].sort().join() && JSON.stringify(offered.previous.sections) === JSON.stringify([...sections.keys()]) ? offered : undefined;
}

/** Each shard's terms (in term order for a shard to be made), and the shards kept from the previous index as the output holds them. */
export interface ShardPlan {
  shardTerms: Map<string, number[]>;
  kept: Set<string>;
}

/**
 * Which shards are made and which kept (see `Unchanged`): a shard is kept when none of its terms
 * changed and the output holds it and the tail of each of its common terms. Known before any posting
 * is placed by term, so that only the made shards' postings are (`madeTerms`).
 */
export function planShards(names: string[], df: Int32Array, split: ReadonlySet<string>, unchanged: Unchanged | undefined): ShardPlan {
  const shardTerms = new Map<string, number[]>();
  const group = (id: number): void => {
    const key = shardOf(names[id]!, split);
    let list = shardTerms.get(key);
    if (!list) shardTerms.set(key, (list = []));
    list.push(id);
  };
  const kept = new Set<string>();
  if (!unchanged) {
    // Every shard is made: terms in code-unit order at once, the default sort of strings, several
    // times faster than a comparator.
    const ids = new Map<string, number>();
    names.forEach((term, id) => df[id]! > 0 && ids.set(term, id));
    for (const term of [...ids.keys()].sort()) group(ids.get(term)!);
    return { shardTerms, kept };
  }
  for (let id = 0; id < names.length; id++) if (df[id]! > 0) group(id);
  // The shards a changed term is in, or was in: a term no document has any more is in no shard's list.
  const changedShards = new Set<string>();
  unchanged.changed.forEach((changed, id) => changed && changedShards.add(shardOf(names[id]!, split)));
  for (const [key, terms] of shardTerms) {
    const keep = !changedShards.has(key) && unchanged.previous.shards.has(key) && terms.every((id) => df[id]! <= TIER || unchanged.previous.tails.has(names[id]!));
    if (keep) kept.add(key);
    else terms.sort((a, b) => (names[a]! < names[b]! ? -1 : 1));
  }
  return { shardTerms, kept };
}

/**
 * Flags by term id (of `termCount` ids): the terms of the shards `plan` makes, whose postings must be
 * placed; not those whose entries are taken from the previous shard (`reused`).
 */
export function madeTerms({ shardTerms, kept }: ShardPlan, termCount: number, reused?: Reused): Uint8Array {
  const wanted = new Uint8Array(termCount);
  for (const [key, terms] of shardTerms) if (!kept.has(key)) for (const id of terms) wanted[id] = reused?.has(id) ? 0 : 1;
  return wanted;
}

/** The heaviest postings (the shard's entry) of each unchanged term of the shards to be made again, by term id; a term with more keeps its tail (`Unchanged`). */
export type Reused = Map<number, number[]>;

/**
 * The unchanged terms of the shards `plan` makes again whose entries the previous index's shard holds
 * (read through `read`, a file below the index's folder, when the output holds it as the previous
 * build wrote it): a shard made again for an edit's few words takes every other term's entry as it
 * was, its postings not placed by term nor gone through (a common shard's are hundreds of thousands at
 * 10,000 pages). A term is taken only with as many documents as it had, and, when it has a tail, the
 * tail the previous index's record names for it.
 */
export function reusedTerms({ shardTerms, kept }: ShardPlan, { names, df }: Pick<Placed, 'names' | 'df'>, unchanged: Unchanged, read: (file: string) => string | undefined): Reused {
  const reused: Reused = new Map();
  for (const [key, terms] of shardTerms) {
    const file = kept.has(key) ? undefined : unchanged.previous.shards.get(key);
    const text = file === undefined ? undefined : read(file);
    if (text === undefined) continue;
    let shard: SearchShard;
    try {
      shard = JSON.parse(text) as SearchShard;
    } catch {
      continue;
    }
    if (typeof shard !== 'object' || shard === null || typeof shard.terms !== 'object' || shard.terms === null) continue;
    for (const id of terms) {
      const term = names[id]!;
      if (unchanged.changed[id] || !Object.hasOwn(shard.terms, term)) continue;
      const head = shard.terms[term];
      const count = df[id]!;
      if (!Array.isArray(head) || head.length !== 2 * Math.min(count, TIER) || !head.every((value) => Number.isInteger(value) && value >= 0)) continue;
      const tail = count > TIER && shard.tails && Object.hasOwn(shard.tails, term) ? shard.tails[term] : undefined;
      if (count > TIER && (!Array.isArray(tail) || tail[1] !== count || tail[0] !== unchanged.previous.tails.get(term)?.[1])) continue;
      reused.set(id, head);
    }
  }
  return reused;
}

/**
 * Writes the shards of `placed` (split as `split` says), each named by its text's hash through `name`,
 * yielding every few hundred terms. A shard's text is made and handed out one shard at a time, so the
 * index never holds the text of every posting (at 100,000 pages, hundreds of megabytes). The shards
 * `plan` keeps are the previous index's (`unchanged`), their postings not read.
 */
export function* shardSteps(placed: Placed, split: ReadonlySet<string>, { shardTerms, kept }: ShardPlan, source: IndexSource, writer: SearchIndexWriter, name: (prefix: string, text: string) => string, unchanged?: Unchanged, reused?: Reused): Generator<undefined, ShardsMade> {
  const { names, df, offset, termDocs, postingWeight, pages, docAnchor, docHeading, sections } = placed;
  const splitList = [...split].sort();
  const made: ShardsMade = { shards: {}, split: splitList, tailKeys: [] };
  /** The previous index's tail of term `id`, when its postings did not change and the output holds it. */
  const knownTail = (id: number): [key: string, file: string] | undefined => (unchanged && !unchanged.changed[id] ? unchanged.previous.tails.get(names[id]!) : undefined);
  /** Keeps the previous index's tail `known` of `term`; returns its file. */
  const keptTail = (term: string, [tailKey, file]: [key: string, file: string]): string => {
    writer.kept?.(`${SEARCH_DIR}/${file}`);
    made.tailKeys.push([tailKey, file, term]);
    return file;
  };
  // A tail's positions and its postings' bytes, in arrays kept from term to term (a common term's tail
  // is a million postings at 100,000 pages: one JavaScript array of them per term was garbage piling up).
  let tailAt = new Int32Array(1024);
  let pairs = new Int32Array(2048);
  /** A tail's file (the postings of `docs` and `weights` at `positions`), named by its postings' bytes before its text is made: one the previous index wrote is kept. */
  const tailFile = (key: string, term: string, docs: Int32Array, weights: Uint8Array, positions: Int32Array): string => {
    let tailKey = '';
    if (source.previousTail) {
      if (pairs.length < positions.length * 2) pairs = new Int32Array(positions.length * 2);
      for (let i = 0; i < positions.length; i++) {
        pairs[2 * i] = docs[positions[i]!]!;
        pairs[2 * i + 1] = weights[positions[i]!]!;
      }
      tailKey = hash(`${source.salt ?? ''}\0${key}`, new Uint8Array(pairs.buffer, 0, positions.length * 8));
      const previous = source.previousTail(tailKey);
      if (previous) return keptTail(term, [tailKey, previous]);
    }
    const file = name(`p-${key}`, deltas(docs, weights, positions));
    if (tailKey) made.tailKeys.push([tailKey, file, term]);
    return file;
  };
  let done = 0;
  for (const key of [...shardTerms.keys()].sort()) {
    const terms = shardTerms.get(key)!;
    if (kept.has(key)) {
      keepShard(key, terms);
      continue;
    }
    // The shape of `SearchShard`, written as JSON text directly.
    const shard = { terms: [] as string[], tails: [] as string[], lead: new Set<number>() };
    for (const id of terms) {
      if (done++ % TERMS_PER_STEP === TERMS_PER_STEP - 1) yield;
      const term = names[id]!;
      const taken = reused?.get(id);
      if (taken) {
        // The previous shard's entry: its heaviest postings hold the term's `LEAD` heaviest.
        takeEntry(shard, term, taken, id);
        continue;
      }
      const count = offset[id + 1]! - offset[id]!;
      const docs = termDocs(id);
      const weights = postingWeight.subarray(offset[id]!, offset[id + 1]!);
      heaviest(docs, weights, 0, count, shard.lead);
      if (count <= TIER) {
        shard.terms.push(`${JSON.stringify(term)}:${deltas(docs, weights, 0, count)}`);
        continue;
      }
      // The heaviest postings stay in the shard (ties to the earlier document), the rest go to a tail.
      // The weight that cuts at TIER is found by counting (weights are 1–99), so nothing is sorted.
      const histogram = new Int32Array(100);
      for (let at = 0; at < count; at++) histogram[weights[at]!]!++;
      let cut = 99;
      let above = 0;
      while (above + histogram[cut]! < TIER) above += histogram[cut--]!;
      let ties = TIER - above;
      const known = knownTail(id);
      const head: number[] = [];
      // An unchanged term's tail is the previous index's: its postings are not gathered.
      if (!known && tailAt.length < count) tailAt = new Int32Array(count);
      let tailLength = 0;
      for (let at = 0; at < count; at++) {
        const weight = weights[at]!;
        if (weight > cut || (weight === cut && ties-- > 0)) head.push(at);
        else if (!known) tailAt[tailLength++] = at;
      }
      shard.terms.push(`${JSON.stringify(term)}:${deltas(docs, weights, head)}`);
      shard.tails.push(`${JSON.stringify(term)}:[${JSON.stringify(known ? keptTail(term, known) : tailFile(key, term, docs, weights, tailAt.subarray(0, tailLength)))},${count}]`);
    }
    // Where the terms' heaviest documents are, and their pages: `SearchShard.docs` and `pages`, flat.
    const docs: string[] = [];
    const onPages = new Map<number, string>();
    for (const doc of [...shard.lead].sort((a, b) => a - b)) {
      const pageNumber = placed.docPage(doc);
      docs.push(`${doc},${pageNumber},${JSON.stringify(docAnchor(doc))},${JSON.stringify(docHeading(doc))}`);
      if (onPages.has(pageNumber)) continue;
      const { route, title, section, method } = pages[pageNumber]!;
      onPages.set(pageNumber, `${pageNumber},${JSON.stringify(route)},${JSON.stringify(title)},${sections.get(section)},${JSON.stringify(method ?? '')}`);
    }
    const onPagesInOrder = [...onPages.keys()].sort((a, b) => a - b).map((pageNumber) => onPages.get(pageNumber));
    const tails = shard.tails.length > 0 ? `,"tails":{${shard.tails.join(',')}}` : '';
    made.shards[key] = name(`t-${key}`, `{"terms":{${shard.terms.join(',')}}${tails},"docs":[${docs.join(',')}],"pages":[${onPagesInOrder.join(',')}]}`);
  }
  return made;

  /** Puts the previous shard's entry of unchanged term `id` (`reusedTerms`) in `shard`, its tail kept. */
  function takeEntry(shard: { terms: string[]; tails: string[]; lead: Set<number> }, term: string, head: number[], id: number): void {
    const count = head.length / 2;
    const docs = new Int32Array(count);
    const weights = new Uint8Array(count);
    for (let i = 0, doc = 0; i < count; i++) {
      docs[i] = doc += head[2 * i]!;
      weights[i] = head[2 * i + 1]!;
    }
    heaviest(docs, weights, 0, count, shard.lead);
    shard.terms.push(`${JSON.stringify(term)}:${JSON.stringify(head)}`);
    if (df[id]! > TIER) shard.tails.push(`${JSON.stringify(term)}:[${JSON.stringify(keptTail(term, knownTail(id)!))},${df[id]}]`);
  }

  /** Keeps the previous index's shard `key` and the tails of its common terms (`planShards` found them all in the output). */
  function keepShard(key: string, terms: number[]): void {
    const file = unchanged!.previous.shards.get(key)!;
    writer.kept?.(`${SEARCH_DIR}/${file}`);
    made.shards[key] = file;
    for (const id of terms) if (df[id]! > TIER) keptTail(names[id]!, knownTail(id)!);
  }
}

const NONE: ReadonlySet<string> = new Set();
