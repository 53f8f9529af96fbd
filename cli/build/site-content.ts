/**
 * Stage 2 of a build (docs/architecture.md), the content: every page and category file of the
 * content folder read (each page file for its doc as it comes off the disk, its text let go unless the
 * caller keeps the sources), the API reference's pages made from the specs, and the docs, routes and
 * sidebars collected. After edits to page bodies alone, the content the last build collected, with
 * those pages' docs read again (snapshot.ts).
 */
import type { BuildOptions } from './index';
import type { ResolvedConfig } from './config';
import { checkHomepage, collectContent, readPageLean, type ContentTree, type SourceFile } from './content';
import { COLLECT_EVERY_FILES, collectGarbage } from './main-heap';
import { generateApiPages, type ApiPages } from './openapi/api-pages';
import { fitOptimizer } from './optimizer';
import { readCache, type ReadCache } from './read-cache';
import { contentSince, pageStats, readSnapshot, SNAPSHOT_PAGES, type ContentNow } from './snapshot';
import { readContentFolder, type ContentFiles } from './sources';
import type { BuildStore } from './store';
import type { TreeListing } from './unchanged';
import { checkSourcesOutside } from './write';

/** The content of a build, and how it came. */
export interface SiteContent {
  files: ContentFiles;
  api: ApiPages;
  content: ContentTree;
  /** The store's docs of the page files (read-cache.ts), with a store and not for `docs serve`. */
  kept?: ReadCache;
  /** The kept content this was taken from (snapshot.ts), when it was. */
  since?: ContentNow;
  /** The page files' stats as read, when this build collected content the next may take (snapshot.ts `keepContent`). */
  readStats?: Map<string, string>;
}

/** What `readSiteContent` reads with. */
export interface ContentReading {
  options: BuildOptions;
  root: string;
  outDir: string;
  config: ResolvedConfig;
  cacheDir?: string;
  store?: BuildStore;
  /** True when the output holds a previous build's pages (a rebuild). */
  rebuild: boolean;
  listing?: TreeListing;
  displayPrefix: string;
}

/** The site's content (see the top of this file); throws a `DocsError` listing every problem of it. */
export async function readSiteContent({ options, root, outDir, config, cacheDir, store, rebuild, listing, displayPrefix }: ContentReading): Promise<SiteContent> {
  const reading = { sidebars: config.sidebars, homepageDoc: config.homepageDoc, displayPrefix };
  // A file unchanged since the last build is not read at all: its doc comes from the store.
  const kept = store && !options.keepSources ? readCache(store, reading) : undefined;
  // After edits to page files alone, that leave what the pages show as it was: the content the last
  // build that collected it kept, those pages' docs read again (snapshot.ts).
  const snapshot = kept && rebuild && listing?.layout && cacheDir ? readSnapshot(cacheDir, listing.layout) : undefined;
  const since = snapshot && listing && kept ? contentSince(snapshot, { listing, contentDir: config.contentDir, displayPrefix, kept, reading }) : undefined;
  let site: SiteContent;
  if (since) {
    site = { files: since.files, api: since.api, content: since.content, kept, since };
    fitOptimizer({ pages: since.pages });
  } else {
    // For the tests: a rebuild that reads and collects the content fails, so a test sees which way it went.
    if (process.env.DOCS_TEST_CONTENT_KEPT && rebuild) throw new Error('DOCS_TEST_CONTENT_KEPT: the rebuild read and collected the content');
    // Each page file is read for its doc as it comes off the disk and its text dropped (the render
    // workers read it again), unless the caller keeps the sources (`docs serve`).
    let readAnew = 0;
    const onRead = (file: SourceFile): void => {
      // The walk holds the thread (seconds at 100,000 pages): the terminal's line counts the files as it goes.
      options.onProgress?.({ stage: 'content', done: ++readAnew });
      if (options.keepSources) return;
      readPageLean(file, reading);
      file.text = '';
      // Reading leaves garbage V8 lets lie while this thread then waits for the renders: collected as it goes.
      if (readAnew % COLLECT_EVERY_FILES === 0) collectGarbage();
    };
    const files = readContentFolder(config.contentDir, displayPrefix, onRead, kept?.known, listing);
    const readStats = kept && listing && files.markdown.length <= SNAPSHOT_PAGES ? pageStats(files, listing, config.contentDir) : undefined;
    fitOptimizer({ pages: files.markdown.length });
    const api = await generateApiPages(root, config, files, displayPrefix);
    // Sources found only by reading: an output folder holding one of them is refused before it is touched.
    checkSourcesOutside(outDir, [...api.refFiles.map(([path]) => path), ...(files.linked?.keys() ?? [])], files.linked);
    site = { files, api, content: collectContent({ files: files.markdown, categories: files.categories, ...reading }), kept, readStats };
  }
  listing?.folders.clear();
  listing?.files.clear();
  checkHomepage(site.content, config.homepageDoc, config.configFile);
  kept?.save(site.files.markdown, !since);
  // The generated API pages' text goes too, now their docs have it.
  if (!options.keepSources) for (const file of site.files.markdown) file.text = '';
  return site;
}
