/**
 * `docs build`: the stages of DESIGN §3 in order — config, content, markdown + render (on the worker
 * pool), links, bundle, write. Every file operation of the build lives here or in the page jobs.
 */
import { readFileSync } from 'node:fs';
import { dropUnchanged, presentFiles, stampOutputs, writeUnchanged, type OutputStamps, type TreeListing, type UnchangedRecord } from './unchanged';
import { outputPaths, outputPathsAfter } from './output-paths';
export { buildSite } from './start';
export { jobsOf } from './jobs';
import { jobsOf } from './jobs';
export { manifestOf, manifestText } from './manifest';
export { nameGeneratedSources, type ApiPages } from './openapi/api-pages';
import { SHELL_DIR } from '../serve/gate';
import { join } from 'node:path';
import type { LastUpdated } from '../../runtime/manifest';
import type { ResolvedConfig } from './config';
import { nameGeneratedSources, type ApiPages } from './openapi/api-pages';
import { manifestText } from './manifest';
import { DocsError, sortDiagnostics, type Diagnostic } from '../util/errors';
import { listFiles, posixRelative } from '../util/fs';
import { bundleRuntime, linkBundle } from './bundle';
import type { ContentTree } from './content';
import type { ContentFiles } from './sources';
import { readLastUpdates } from './git';
import { checkLinks, type LinkReport } from './links';
import { announcementAnchors, checkAnnouncement, type CheckedAnnouncement } from './announcement';
import { SEARCH_ENTRY } from './search/index';
import { blocksOf, makeBuildIndex, searchPagesOf } from './search/source';
import { STATE_FILE } from './search/state';
import { indexElsewhere, type StatePlace } from './search/index-thread';
import type { PageJobContext, PageResult } from './page-job';
import { collectGarbage, limitHeapGrowth, MANY_PAGES } from './main-heap';
import type { RenderPool } from './pool';
import { gateShellHtml, notFoundHtml } from './render';
import { checkTemplate, templateFile } from './template';
import { buildPages, outputKeys, previousResults, renderEarly, sharedKey } from './pages';
import { keepContent } from './snapshot';
import { readSiteContent } from './site-content';
import { routesDigest } from './markdown/route-lookups';
import { markdownSalt, saveState, type BuildStore, type OutputRecord } from './store';
import type { OnProgress } from './progress';
import { imageCollector, imagesOutside } from './images';
import { checkSourcesOutside, OUTPUT_MARKER, OUTPUT_MARKER_TEXT, readOutput, sameBytes, writeOutput } from './write';
import { crashPoint, createStaging, discardStaging, publishInPlace, publishStaging, stagingPath } from './publish';

/** Options of `buildSite`. */
export interface BuildOptions {
  /** Site root: the folder of `site.config.ts`. */
  root: string;
  /** Output folder. @default '<root>/dist' */
  outDir?: string;
  /** Environment (for `DOCS_BACKEND_URL`). */
  env?: Record<string, string | undefined>;
  /** Compiled worker entry; without it pages render on the calling thread. */
  workerUrl?: URL;
  /** A render thread the caller keeps between builds (`docs serve`): a few pages render on it, not on the calling thread (pool.ts `PoolOptions.thread`). */
  renderThread?: RenderPool;
  /** Use the content-hash cache under `node_modules/.cache/docs`. @default true */
  cache?: boolean;
  /** Render threads. @default one per core */
  threads?: number;
  /** Replace a non-empty output folder that `docs` did not write (`--force`). @default false */
  force?: boolean;
  /** Hears the build's progress (the CLI draws a live line on a terminal). */
  onProgress?: OnProgress;
  /** Build for the gated host (`--gate`) or not (`--no-gate`), whatever `site.config.ts` says; undefined: as it says. */
  gate?: boolean;
  /** Give every result its search blocks, even when the build keeps the previous index (`docs serve`). */
  searchBlocks?: boolean;
  /**
   * Keep the content files' text in the returned state (`docs serve` applies saves to it). Otherwise
   * it is let go once the content is collected: the docs hold the bodies, and at 10,000 pages the
   * texts are some 40 MB the rest of the build does not need.
   */
  keepSources?: boolean;
  /**
   * Stop at once when neither the sources nor the output changed since the last build into the same
   * folder (cli/build/unchanged.ts): the report then carries the last build's figures and no `state`.
   * `docs build` sets it; `docs serve` needs the state and does not.
   */
  unchanged?: boolean;
  /** The archive `--archive` will write once the build is done: its place is checked before the output is touched. */
  archive?: string;
}

/** What a successful build reports. */
export interface BuildReport {
  outDir: string;
  pages: number;
  /** Pages whose markdown came from the cache. */
  cachedPages: number;
  warnings: Diagnostic[];
  seconds: number;
  /** Time spent building and writing the search index (0 when the output was already current). */
  searchSeconds: number;
  /** True when the build stopped at once: nothing had changed since the last one (`unchanged`). */
  unchanged?: boolean;
  /**
   * The build store (node_modules/.cache/docs) could not be written, and why: the output is whole, the
   * next build will not be the faster for this one.
   */
  cacheProblem?: { dir: string; reason: string };
  /**
   * Earlier outputs and staging folders of this output the build could not remove (another user's
   * files, left by a build once run with `sudo`), with the reason: the output is whole all the same.
   */
  leftovers?: { path: string; reason: string }[];
  /**
   * Everything the build knew, for `docs serve` to update pages without starting over. Undefined only
   * when the build stopped at once, nothing having changed (`unchanged`).
   */
  state?: SiteState;
}

/** The inputs and outputs of a finished build (see `cli/serve/incremental.ts`). */
export interface SiteState {
  root: string;
  config: ResolvedConfig;
  /** The content files as read, API pages included; their text only with `keepSources` (`docs serve`). */
  files: ContentFiles;
  api: ApiPages;
  content: ContentTree;
  lastUpdates: Map<string, LastUpdated>;
  /** The page context, with `outDir` the published output folder. */
  context: PageJobContext;
  /** One result per doc, in the order of `content.docs`. */
  results: PageResult[];
  /** The announcement's warnings, and its links to a section of a page, checked again when that page changes (`docs serve`). */
  announcement: Pick<CheckedAnnouncement, 'warnings' | 'anchors'>;
}

/** What `buildWith` starts from: the options, the config, and what the previous build left. */
export interface BuildStart {
  options: BuildOptions;
  started: number;
  root: string;
  outDir: string;
  config: ResolvedConfig;
  cacheDir?: string;
  store?: BuildStore;
  /** The record of the previous build's output in `outDir`; undefined when there is none. */
  previous?: OutputRecord;
  pool?: RenderPool;
  /** A thread started with the build for the few pages a rebuild renders (start.ts); closed once they are. */
  warm?: RenderPool;
  /** Where `warm` reads the previous search index's state (search/index-thread.ts); set with it when the build has a cache. */
  indexState?: StatePlace;
  /** Fingerprint of the inputs as the build starts, recorded for the next one (with `unchanged`). */
  inputs?: string;
  /** The last build's record of its output's fingerprint (unchanged.ts), when there is one. */
  last?: UnchangedRecord;
  /** What the input fingerprint saw of the content folder, for the content walk (emptied once it is done). */
  listing?: TreeListing;
  /** Folders of earlier builds of this output that could not be removed (`BuildReport.leftovers`). */
  leftovers: { path: string; reason: string }[];
  /** The stamps of `last`'s output paths, when start.ts took them already. */
  now?: OutputStamps;
}

/**
 * The build after the config: content, pages, checks, output. With a record of the previous output the
 * output is updated in place: only the files that change are written (staged first, moved in once every
 * check passed) and the files no page needs any more removed, so a rebuild costs what changed. Without
 * one the whole output is staged and swapped in.
 */
export async function buildWith({ options, started, root, outDir, config, cacheDir, store, previous, pool, warm, indexState, inputs, last, listing, now, leftovers }: BuildStart): Promise<BuildReport> {
  const displayPrefix = `${posixRelative(root, config.contentDir)}/`;
  options.onProgress?.({ stage: 'content' });
  const lastUpdatesPromise = readLastUpdates(config.contentDir);
  const site = await readSiteContent({ options, root, outDir, config, cacheDir, store, rebuild: previous !== undefined, listing, displayPrefix });
  const { files, api, content, kept, since } = site;
  const lastUpdates = await lastUpdatesPromise;

  // The runtime bundle depends on the docs package alone (its runtime, its bundler settings, its
  // lockfile), never on the site: it is cached with the package and shared by every site it builds.
  const bundle = await bundleRuntime();
  const template = checkTemplate(readFileSync(templateFile(root, 'page.html'), 'utf8'), 'templates/page.html');
  const favicon = readFileSync(templateFile(root, 'favicon.svg'));
  const staging = stagingPath(outDir);
  const markdown = { ...config.markdown, displayPrefix, routeOfFile: content.routeOfFile };
  // The announcement bar is on every page: its HTML held to a page's rules, its links checked (announcement.ts).
  // Its images are copied as a page's are, and written with the site-wide files.
  const announcementImages = new Map<string, Buffer>();
  const announcement = checkAnnouncement(config.site, new Set(content.docs.map((doc) => doc.route)), { displayPrefix, resolve: imageCollector(config.contentDir, announcementImages) });
  const context: PageJobContext = {
    site: announcement.site,
    markdown,
    template,
    assets: bundle.urls,
    contentDir: config.contentDir,
    outDir: staging,
    published: previous ? outDir : undefined,
    cache: store && cacheDir ? { dir: cacheDir, salt: markdownSalt(markdown) } : undefined,
    manifestUrl: '/manifest.json',
    editUrl: config.editUrl,
    sidebars: content.sidebars,
  };
  const jobs = jobsOf({ content, config, lastUpdates, api, modified: files.modified });
  const routes = routesDigest(content.routeOfFile);
  let searchSeconds = 0;
  /** Why the build store could not be written, when it could not (the output is whole all the same). */
  let cacheProblem: string | undefined;
  const report = (results: PageResult[], warnings: Diagnostic[]): BuildReport => ({
    ...(cacheProblem !== undefined && cacheDir ? { cacheProblem: { dir: cacheDir, reason: cacheProblem } } : {}),
    ...(leftovers.length > 0 ? { leftovers } : {}),
    outDir,
    pages: jobs.length,
    cachedPages: results.filter((result) => result.cached).length,
    warnings,
    seconds: (performance.now() - started) / 1000,
    searchSeconds,
    state: { root, config, files, api, content, lastUpdates, context: { ...context, outDir, published: undefined, cache: undefined }, results, announcement: { warnings: announcement.warnings, anchors: announcement.anchors } },
  });

  // Before the output changes, the records that describe it go: a build killed while it writes leaves
  // neither the store's record of the output nor a fingerprint saying nothing changed. A build without
  // the cache (`--no-cache`) leaves the fingerprint alone: the output's stamps it records no longer
  // match what that build rewrote, so the next build looks again, and repairs what differs.
  // The store's record goes as soon as the build knows the output will change (it rendered pages that
  // passed their checks): its commit (an fsync) then happens while the search index is made, not while
  // the output waits for it.
  let forgetting: Promise<void> | undefined;
  const forgetRecord = (): Promise<void> =>
    (forgetting ??= (async () => {
      try {
        await store?.meta.remove('output');
      } catch (error) {
        // A store that takes no write (a full disk): its record stays, and speaks of pages by the hash
        // of their inputs, so a later build still renders every page this one changed.
        cacheProblem ??= error instanceof Error ? error.message : String(error);
      }
    })());
  const forgetOutput = async (): Promise<void> => {
    if (cacheDir) dropUnchanged(cacheDir, outDir, last);
    await forgetRecord();
  };
  createStaging(staging, outDir);
  // A build without a record of the output stages the whole bundle: copied while the pages render.
  const linking = previous ? undefined : linkBundle(bundle, { staging, outDir });
  linking?.catch(() => undefined);
  const thread = options.renderThread ?? warm;
  // The edited files' pages render on the warm thread while this one finds what else changed.
  const early = previous && thread && kept ? renderEarly({ context, jobs, rels: kept.readAnew(), thread, store }) : undefined;
  // Then that thread makes the search index, taken if the pages turn out as it assumed (search/index-thread.ts).
  const request = early && previous && indexState ? { ...indexState, pages: searchPagesOf(config, content), previous: { search: previous.search }, outDir, staging } : undefined;
  const elsewhere = request && warm ? indexElsewhere(warm, request) : undefined;
  try {
    // What the output holds now: a page is kept only while every file it wrote is there.
    const output = previous ? presentFiles(outDir, previous, last, now) : undefined;
    const present = output?.files;
    const keys = previous ? outputKeys(context, jobs, since?.keys) : undefined;
    const reusable = store && present && keys ? previousResults(context, jobs, keys, (route) => store.pages.get(route), present, previous?.routes === routes) : [];
    const { results, keys: pageKeys, rendered, storeFailed } = await buildPages({ context, jobs, keys, reusable, workerUrl: options.workerUrl, threads: options.threads, pool, thread, store, onProgress: options.onProgress, early });
    // The content this build collected, kept for the next one with every page's key (snapshot.ts).
    if (cacheDir && kept && !since) keepContent(cacheDir, { ...site, layout: listing?.layout, shared: sharedKey(context), keys: pageKeys });
    // The render workers are done: they go now, not after the index (their heaps were 700 MB of a
    // 100,000-page build's peak while the main thread made the search index), their ends waited for by
    // start.ts once the output is in place (a thread's end takes some 45 ms). This thread's heap, when
    // large, grows by less from now on (main-heap.ts `limitHeapGrowth`).
    void Promise.all([pool?.close(), (elsewhere?.settled ?? Promise.resolve()).then(() => warm?.close())]).catch(() => undefined);
    limitHeapGrowth();
    // The images pages show from outside the content folder are sources too.
    checkSourcesOutside(outDir, imagesOutside(results, config.contentDir));

    options.onProgress?.({ stage: 'links' });
    nameGeneratedSources(results, api.source, displayPrefix, root);
    const warnings = checkResults(results, undefined, { errors: announcement.errors, warnings: [...announcement.warnings, ...announcementAnchors(announcement.anchors, results)] });
    // The pages passed their checks: a build that rendered some will change the output.
    if (rendered.length > 0) void forgetRecord();

    options.onProgress?.({ stage: 'write' });
    // The site-wide files are staged as they are made (in place, those that differ), not after the
    // search index: the manifest is 40 MB of text at 100,000 pages, which the index's peak need not hold.
    const siteFiles: string[] = [];
    const writeSiteFile = (file: string, bytes: string | Buffer): void => {
      siteFiles.push(file);
      if (!present || !sameBytes(outDir, file, bytes)) writeOutput(staging, file, bytes);
    };
    writeSiteFile(OUTPUT_MARKER, OUTPUT_MARKER_TEXT);
    writeSiteFile('favicon.svg', favicon);
    writeSiteFile('404.html', notFoundHtml(context));
    writeSiteFile('manifest.json', manifestText(config, content, results));
    if (config.site.gated) writeSiteFile(`${SHELL_DIR}/index.html`, gateShellHtml(context));
    for (const [file, bytes] of announcementImages) writeSiteFile(file, bytes);

    // The index is made from the pages alone: with every page kept, and the same pages, it is the
    // previous one (its files are named by their content's hash, so present is as good as compared).
    // Otherwise it is made again, each page's blocks read from the store as the index reaches it, and
    // each file written as it is made; one the output already has is the same file.
    options.onProgress?.({ stage: 'search' });
    const indexing = performance.now();
    let index: OutputRecord['search'];
    const sameIndex = previous && rendered.length === 0 && previous.pages === jobs.length && previous.search.files.every((file) => present!.has(file));
    // The index the warm thread made meanwhile, when it is this build's; its files go otherwise.
    if (sameIndex) await elsewhere?.discard();
    const offloaded = sameIndex ? undefined : await elsewhere?.take(results, present!);
    if (sameIndex) {
      index = previous.search;
    } else if (offloaded) {
      index = offloaded.search;
      searchSeconds = offloaded.seconds;
    } else {
      // For the tests: a rebuild whose index this thread makes fails, so a test sees which thread made it.
      if (process.env.DOCS_TEST_INDEX_ELSEWHERE && previous) throw new Error('DOCS_TEST_INDEX_ELSEWHERE: the main thread made the index of a rebuild');
      index = await makeBuildIndex({ pages: request?.pages ?? searchPagesOf(config, content), results, store, stateFile: store && cacheDir ? join(cacheDir, STATE_FILE) : undefined, previous, present, read: (file) => readOutput(outDir, file), write: (file, text) => writeOutput(staging, file, text) });
      searchSeconds = (performance.now() - indexing) / 1000;
      // Its postings are garbage now (200 MB at 100,000 pages, held to the end of a one-page edit
      // there), collected before the output's stamps and records grow the heap; not after `docs
      // serve`'s first build of few pages, whose saves it made 15 ms slower (alternated serve benches).
      if (rendered.length >= MANY_PAGES || (jobs.length >= MANY_PAGES && !options.keepSources)) collectGarbage();
    }
    writeSiteFile(SEARCH_ENTRY, index.entry);
    if (options.searchBlocks) results.forEach((result, i) => (result.search = blocksOf(results, store, i)));

    const assets = listFiles(bundle.assetsDir).map((file) => `assets/${file}`);
    // Every file the output holds once published.
    const wanted = new Set([...siteFiles, ...assets, ...results.flatMap((result) => result.files), ...index.files]);
    /** The output's paths whose stamps are known and that this build left alone (none after a full publish). */
    let untouched: Map<string, string> | undefined;
    if (present) {
      untouched = output!.kept;
      // In place: write what differs, remove what no page needs any more, touch nothing else.
      await linkBundle(bundle, { staging, outDir, wanted: (file) => !present.has(file) });
      // What no page wants any more: the files the output held, and those edited by hand since (not present, but there).
      const stale = [...present, ...output!.altered].filter((file) => !wanted.has(file));
      if (rendered.length > 0 || stale.length > 0 || listFiles(staging).length > 0) {
        await forgetOutput();
        crashPoint('publish');
        for (const path of publishInPlace(staging, outDir, stale, () => crashPoint('mid-publish'))) untouched.delete(path);
      } else {
        discardStaging(staging);
        // A staging folder made inside the output folder (publish.ts) changed its mtime.
        untouched.delete('');
      }
    } else {
      await (linking ?? linkBundle(bundle, { staging, outDir }));
      await forgetOutput();
      crashPoint('publish');
      const old = publishStaging(staging, outDir);
      if (old) leftovers.push(old);
    }
    crashPoint('published');
    let unchanged: UnchangedRecord | undefined;
    const record: OutputRecord = { outDir, pages: jobs.length, search: index, routes };
    if (inputs) {
      // The same files as the last build's output (most rebuilds): the same paths, listed and sorted already.
      const known = last && previous?.files && previous.digest === last.outputDigest ? previous.files : undefined;
      const outputs = known && last ? (sameSet(wanted, known) ? last.outputs : outputPathsAfter(last.outputs, known, wanted)) : outputPaths(wanted, siteFiles);
      const { digest: outputDigest, stamps: outputStamps } = stampOutputs(outDir, outputs, untouched);
      if (outputDigest) {
        unchanged = { outDir, pages: jobs.length, warnings, inputs, refFiles: api.refFiles, outputs, outputDigest, outputStamps };
        Object.assign(record, { files: [...wanted], digest: outputDigest });
      }
    }
    if (storeFailed !== undefined) cacheProblem = storeFailed;
    else if (store && !(await saveState(store, { record, jobs, results, keys: pageKeys, rendered }))) cacheProblem = 'its last transaction did not commit';
    if (store && cacheProblem === undefined && unchanged && cacheDir) writeUnchanged(cacheDir, unchanged);
    // A build that records no fingerprint (docs serve's) leaves none of an earlier one of its folder behind.
    else if (cacheDir) dropUnchanged(cacheDir, outDir, last);
    return report(results, warnings);
  } catch (error) {
    // The workers stop before their staging folder goes: one still writing a page would make the
    // removal fail (ENOTEMPTY) and hide the error that matters.
    await pool?.close().catch(() => undefined);
    await early?.results.catch(() => undefined);
    await elsewhere?.settled;
    await linking?.catch(() => undefined);
    discardStaging(staging);
    throw error;
  }
}

/** True when `list` holds the members of `set`, each once. */
function sameSet(set: ReadonlySet<string>, list: readonly string[]): boolean {
  return set.size === list.length && list.every((item) => set.has(item));
}

/**
 * Link checks over every page; throws a `DocsError` with every error, returns the sorted warnings.
 * `links` is the pages' link report when the caller has it (`docs serve` keeps a `LinkChecker`);
 * `site` the problems of what is on every page (the announcement).
 */
export function checkResults(results: PageResult[], links: LinkReport = checkLinks(results), site: LinkReport = { errors: [], warnings: [] }): Diagnostic[] {
  // A page that could not be written (a full disk): the output folder's problem, exit 2, before any page's.
  const output = results.flatMap((result) => result.outputErrors ?? []);
  if (output.length > 0) throw new DocsError('usage', sortDiagnostics(output));
  const errors = [...site.errors, ...results.flatMap((result) => result.errors), ...links.errors];
  const warnings = [...site.warnings, ...results.flatMap((result) => result.warnings), ...links.warnings];
  // The warnings go with the errors: a writer who fixes the errors learns of them now, not one build later.
  if (errors.length > 0) throw new DocsError('content', sortDiagnostics(errors), undefined, false, false, sortDiagnostics(warnings));
  return sortDiagnostics(warnings);
}

export { DocsError };
export type { ContentFiles };
