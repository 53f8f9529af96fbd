/**
 * The content as the last build collected it, kept for a rebuild after page files were edited.
 *
 * A rebuild reads the doc of every page file (10,000 records of the build store at 10,000 pages),
 * collects the routes and sidebars again and makes every page's output key again: 0.4 s of a one-page
 * edit there, before the edited page could even start rendering. Yet when the only inputs that changed
 * are page files, and their changes leave what a sidebar, a route or a neighbour shows as it was (a
 * body edited, the usual case), all of that is what the last build had, but the edited pages' docs.
 *
 * So a build that collected the content keeps it in a file beside the build store (`content.bin`,
 * V8's serialization: 10 MB at 10,000 pages, 40–70 ms either way), with what it was made from:
 * - the fingerprint of the inputs' layout (unchanged.ts `TreeListing.layout`): everything the inputs'
 *   fingerprint takes (generator, config, git commit, templates, specs, every file below the content
 *   folder) but the page files' stats and the folders' mtimes;
 * - each page file's stats when it was read;
 * - the docs, sidebars and routes (`ContentTree`), the files' mtimes, the API pages' sources, and each
 *   page's output key with what every key was made with (pages.ts `sharedKey`).
 *
 * The next build takes it while the layout is the same (`contentSince`): every page file is where it
 * was, and every other input as it was. A page file whose stats differ is read again (or its doc taken
 * from the store, when it was read by a build since), and its doc must show what it showed: the same
 * id, route, sidebar, title, label, position, frontmatter. Its body may differ. The content is then the
 * kept one with those docs in place, and only those pages' output keys are made again (their jobs are
 * the only ones that can differ: the git commit, which gives the others' last-update dates, is part of
 * the layout). Anything else (a page added, a title changed, a category file or an image edited, a file
 * reached through a symbolic link) and the build reads and collects as always, then keeps its content.
 *
 * The file is a cache: written whole or not at all (`writeWhole`), taken only when whole, of this
 * generator (the layout hashes the generator's version) and of this V8 (another version of Node may
 * write it between two builds), and never above `SNAPSHOT_PAGES` pages, where its buffer would be some
 * 90 MB at the build's peak.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { readDoc, readPageLean, type ContentTree, type Doc, type KeptDoc, type SourceFile } from './content';
import type { ApiPages } from './openapi/api-pages';
import type { KnownKeys } from './pages';
import type { ReadCache } from './read-cache';
import { pageText, type ContentFiles } from './sources';
import { sameFiles, statsKey, type FileStamp, type TreeListing } from './unchanged';
import { writeWhole } from '../util/fs';

/** The content a build collected, and what it was made from (see the top of this file). */
export interface ContentSnapshot extends Omit<KnownKeys, 'changed'> {
  /** Fingerprint of the inputs' layout (`TreeListing.layout`). */
  layout: string;
  /** The V8 that wrote it (`process.versions.v8`): another reads its serialization as it pleases, or not at all. */
  v8: string;
  /** Each page file's stats when it was read (`statsKey`), by path below the content folder. */
  stats: Map<string, string>;
  content: ContentTree;
  /** The page files' mtimes (`ContentFiles.modified`). */
  modified: Map<string, number>;
  api: ApiPages;
}

/** The file, in the cache folder. */
const SNAPSHOT_FILE = 'content.bin';

/** The most pages whose content a build keeps. */
export const SNAPSHOT_PAGES = 50_000;

/** Edited page files past which a build reads and collects as always (and keeps its content again). */
const MOST_EDITED = 1_000;

/**
 * What the file starts with, before the serialization: the layout and the V8 it was written for, so a
 * build whose layout changed (a title edited, a page added) does not deserialize 10 MB to learn it.
 */
function headerOf(layout: string): string {
  return `${layout} ${process.versions.v8}\n`;
}

/** The content `cacheDir` keeps, when it is whole and of the inputs' layout `layout`. */
export function readSnapshot(cacheDir: string, layout: string): ContentSnapshot | undefined {
  try {
    const bytes = readFileSync(join(cacheDir, SNAPSHOT_FILE));
    const header = headerOf(layout);
    if (bytes.toString('latin1', 0, header.length) !== header) return undefined;
    const snapshot = deserialize(bytes.subarray(header.length)) as Partial<ContentSnapshot> | null;
    if (snapshot?.layout !== layout || snapshot.v8 !== process.versions.v8 || !(snapshot.stats instanceof Map) || !(snapshot.modified instanceof Map) || !Array.isArray(snapshot.keys) || !Array.isArray(snapshot.content?.docs)) return undefined;
    if (snapshot.keys.length !== snapshot.content.docs.length || !(snapshot.api?.source instanceof Map) || !Array.isArray(snapshot.api.refFiles)) return undefined;
    return snapshot as ContentSnapshot;
  } catch {
    // None, or a damaged one: the build reads and collects as always.
    return undefined;
  }
}

/** Keeps `snapshot` for the next build (a cache: one that cannot be written is left out). */
function writeSnapshot(cacheDir: string, snapshot: Omit<ContentSnapshot, 'v8'>): void {
  try {
    writeWhole(join(cacheDir, SNAPSHOT_FILE), Buffer.concat([Buffer.from(headerOf(snapshot.layout), 'latin1'), serialize({ ...snapshot, v8: process.versions.v8 })]));
  } catch {
    dropSnapshot(cacheDir);
  }
}

/**
 * Keeps the content a build collected (`site`, with the output keys it made) for the next build, or,
 * when it cannot be kept (more than `SNAPSHOT_PAGES` pages, a page file reached through a link, no
 * layout), removes an earlier one: a build that collected content leaves none older behind.
 */
export function keepContent(cacheDir: string, site: { content: ContentTree; files: ContentFiles; api: ApiPages; readStats?: Map<string, string>; layout?: string; shared: string; keys: string[] }): void {
  const { content, files, api, readStats, layout, shared, keys } = site;
  if (readStats && layout && keys.length <= SNAPSHOT_PAGES) writeSnapshot(cacheDir, { layout, stats: readStats, content, modified: files.modified ?? new Map(), api, shared, keys });
  else dropSnapshot(cacheDir);
}

/** Removes the kept content (a build that keeps none of its own). */
function dropSnapshot(cacheDir: string): void {
  rmSync(join(cacheDir, SNAPSHOT_FILE), { force: true });
}

/** The stats of the content folder's page files as the walk found them (`statsKey`), by path below it; undefined when one is not in the listing. */
export function pageStats(files: ContentFiles, listing: TreeListing, contentDir: string): Map<string, string> | undefined {
  const stats = new Map<string, string>();
  for (const file of files.markdown) {
    if (file.generatedBy) continue;
    const found = listing.files.get(join(contentDir, file.rel));
    if (!found) return undefined;
    stats.set(file.rel, statsKey(found));
  }
  return stats;
}

/** What `contentSince` gives: the content as a build that collected it would have it. */
export interface ContentNow {
  /** The content folder's page files. */
  pages: number;
  /** The edited page files' (their docs read again); the mtimes of every page file. */
  files: ContentFiles;
  api: ApiPages;
  content: ContentTree;
  /** What of the output keys is known (`outputKeys`). */
  keys: KnownKeys;
}

/**
 * The content now from `snapshot`, when only page files changed since and none changed what it shows
 * (see the top of this file); otherwise undefined. `listing` is what the inputs' fingerprint saw of the
 * content folder; `kept` the store's docs of the files read by a build since the snapshot's.
 */
export function contentSince(snapshot: ContentSnapshot, { listing, contentDir, displayPrefix, kept, reading }: { listing: TreeListing; contentDir: string; displayPrefix: string; kept: ReadCache; reading: Parameters<typeof readPageLean>[1] }): ContentNow | undefined {
  // The other files the specs' `$ref`s named are no part of the layout.
  if (!sameFiles(snapshot.api.refFiles)) return undefined;
  const edited = new Map<string, FileStamp>();
  for (const [rel, stats] of snapshot.stats) {
    const found = listing.files.get(join(contentDir, rel));
    // Not a regular file any more (a link in its place): the layout would differ; read as always all the same.
    if (!found) return undefined;
    if (statsKey(found) !== stats) edited.set(rel, found);
  }
  if (edited.size > MOST_EDITED) return undefined;
  const places = new Map<string, number>();
  snapshot.content.docs.forEach((doc, at) => places.set(doc.rel, at));
  const docs = [...snapshot.content.docs];
  const modified = new Map(snapshot.modified);
  const read: SourceFile[] = [];
  for (const [rel, stats] of edited) {
    const at = places.get(rel);
    if (at === undefined) return undefined;
    const file: SourceFile = { rel, text: '' };
    // Read by a build since the snapshot's (the store has its doc of these stats), or read now.
    if (!kept.known(file, stats)) {
      const text = pageText(join(contentDir, rel), stats.size, displayPrefix + rel);
      if (text === undefined) return undefined;
      file.text = text;
      readPageLean(file, reading);
      file.text = '';
    }
    const doc = readDoc(file);
    const before = docs[at]!;
    if (!doc || !sameShown(doc, before)) return undefined;
    docs[at] = { ...before, bodyHash: doc.bodyHash, cost: doc.cost };
    modified.set(rel, stats.mtimeMs);
    read.push(file);
  }
  return {
    pages: snapshot.stats.size,
    files: { markdown: read, categories: [], modified, linked: new Map() },
    api: snapshot.api,
    content: { ...snapshot.content, docs },
    keys: { shared: snapshot.shared, keys: snapshot.keys, changed: new Set(edited.keys()) },
  };
}

/** True when `doc` shows what `before` showed: every field but the body's hash and cost (the sidebars', routes' and neighbours' inputs). */
function sameShown(doc: KeptDoc, before: Doc): boolean {
  const { bodyHash: _hash, cost: _cost, body: _body, ...shown } = doc;
  const { bodyHash: _beforeHash, cost: _beforeCost, body: _beforeBody, breadcrumbs: _breadcrumbs, prev: _prev, next: _next, ...shownBefore } = before;
  return canonical(shown) === canonical(shownBefore);
}

/** JSON text of `value` with every object's keys in order: two docs made by different paths compare alike. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (item && typeof item === 'object' && !Array.isArray(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : item));
}
