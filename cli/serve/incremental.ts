/**
 * `docs serve`'s fast path. A saved markdown or category file re-renders only the pages it affects —
 * the file's own page, and every page of a sidebar whose tree changed (titles, labels and order show
 * in every page of it) — on a render thread kept for the session, its highlighter already warm, so
 * the server answers every request while a heavy page renders (a 40,000-item list took the server
 * 30 s when it rendered on its own thread). Pages are rendered into a scratch folder first and moved
 * into place only when the whole site still checks out, so a broken file leaves the served pages as
 * they were.
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { configInputs } from '../build/config-file';
import { collectContent, withBodies, type ContentTree, type SourceFile } from '../build/content';
import { announcementAnchors } from '../build/announcement';
import { checkResults, jobsOf, manifestText, nameGeneratedSources, type SiteState } from '../build/index';
import { searchInputOf, writeSearchIndex } from '../build/search/source';
import { searchIndexFilesInSlices } from '../build/search/index';
import { PageBuilder, type PageResult } from '../build/page-job';
import type { RenderPool } from '../build/pool';
import { LinkChecker } from '../build/links';
import type { Diagnostic } from '../util/errors';
import type { LastUpdated } from '../../runtime/manifest';
import { normaliseText } from '../build/sources';
import { isCategoryPath, isPagePath } from '../build/file-names';

/** A saved, added or deleted file of the content folder. */
export interface ContentChange {
  /** Path below the content folder. */
  rel: string;
  /** New text, or null when the file was deleted. */
  text: string | null;
}

/** What an update did. */
export interface UpdateReport {
  /** Routes re-rendered. */
  routes: string[];
  warnings: Diagnostic[];
  seconds: number;
}

/** Each file's place in a list of files, made once per list. */
const placesOf = new WeakMap<SourceFile[], Map<string, number>>();

/** `files` with the changes applied, and the saved files' new objects (the others stay the same objects). */
function applyChanges(files: SourceFile[], changes: ContentChange[]): { files: SourceFile[]; saved: SourceFile[] } {
  let places = placesOf.get(files);
  if (!places) placesOf.set(files, (places = new Map(files.map((file, at) => [file.rel, at]))));
  const saved = changes.flatMap((change) => (change.text === null ? [] : [{ rel: change.rel, text: normaliseText(change.text) }]));
  if (changes.every((change) => change.text !== null && places.has(change.rel))) {
    // Saves of files that were there: each takes its file's place, so the list keeps its places.
    const next = [...files];
    for (const file of saved) next[places.get(file.rel)!] = file;
    placesOf.set(next, places);
    return { files: next, saved };
  }
  const byRel = new Map(files.map((file) => [file.rel, file]));
  for (const change of changes) if (change.text === null) byRel.delete(change.rel);
  for (const file of saved) byRel.set(file.rel, file);
  return { files: [...byRel.values()], saved };
}

/** A built site that can take content changes. */
export class SiteSession {
  /**
   * Rewrites the search index from every page's kept blocks (only the saved pages were extracted
   * again); shards and chunks whose bytes did not change keep their files. `docs serve` calls it once
   * the reload has gone out, so a save shows as fast as without search. It runs in slices with the
   * event loop free between them (seconds at 10,000 pages), and is dropped, writing nothing, when a
   * later save comes in first: that save's refresh follows.
   */
  async refreshSearch(): Promise<void> {
    const run = ++this.searchRuns;
    const files = await searchIndexFilesInSlices(searchInputOf(this.state.config, this.state.content, this.state.results), () => run !== this.searchRuns);
    if (files) writeSearchIndex(this.outDir, files);
  }

  /** The link checks of the pages as they are, kept between saves. */
  private links?: LinkChecker;

  /** Counts the refreshes started and the updates applied: a refresh older than the last count gives up. */
  private searchRuns = 0;

  /** Stops a refresh under way and lets the highlighter go: the site is being built again, or the server stops. */
  dispose(): void {
    this.searchRuns++;
    this.builder?.dispose();
  }

  /** The renderer on this thread, when the session has no render thread (`DOCS_THREADS=0`). */
  private builder?: PageBuilder;

  /** `thread` gives the server's render thread (its caller's to stop); without it, pages render on this thread. */
  constructor(
    private state: SiteState,
    private thread?: () => RenderPool | undefined,
  ) {
    if (thread) return;
    this.builder = new PageBuilder(state.context);
    // The first save should be as quick as the later ones: start shiki while the writer reads.
    void this.builder.warm().catch(() => undefined);
  }

  /**
   * Whether the site reads `path` (absolute) besides its pages and category files: a file a page shows
   * or links to, a spec or a file a spec's `$ref` names, a file reached through a link, one the config
   * imports. A file it does not read changes no page.
   */
  reads(path: string): boolean {
    const { state } = this;
    return (
      state.results.some((result) => result.images.some((image) => image.source === path)) ||
      state.config.openapi.some((spec) => resolve(state.root, spec.file) === path) ||
      state.api.refFiles.some(([file]) => file === path) ||
      (state.files.linked?.has(path) ?? false) ||
      configInputs(state.root).includes(path)
    );
  }

  /** The output folder being served. */
  get outDir(): string {
    return this.state.context.outDir;
  }

  /**
   * Applies content changes, and `lastUpdates` when given: the git history's dates and authors read
   * again (a commit moved the repository's HEAD), which re-render the pages whose date moved. Resolves
   * to 'full' when the changes add or remove a route (links everywhere may change: the caller
   * rebuilds); throws a `DocsError` when the site no longer builds.
   */
  async update(changes: ContentChange[], lastUpdates?: Map<string, LastUpdated>): Promise<UpdateReport | 'full'> {
    const started = performance.now();
    // A refresh of the index under way describes the site before this change.
    this.searchRuns++;
    const { state } = this;
    // A `.md` file that is not a page (a `_partial.md`, a file in `_drafts/`) changes no page.
    const mdChanges = changes.filter((change) => isPagePath(change.rel));
    const categoryChanges = changes.filter((change) => isCategoryPath(change.rel));
    // The pages whose last update in git moved (an API page's date is its spec's, read by a full build).
    const sameUpdate = (a: LastUpdated | undefined, b: LastUpdated | undefined): boolean => a?.timestamp === b?.timestamp && a?.author === b?.author;
    const dated = new Set(lastUpdates ? state.content.docs.filter((doc) => !state.api.lastUpdated.has(doc.rel) && !sameUpdate(lastUpdates.get(doc.rel), state.lastUpdates.get(doc.rel))).map((doc) => doc.rel) : []);
    if (lastUpdates && dated.size === 0) this.state = { ...state, lastUpdates };
    if (mdChanges.length === 0 && categoryChanges.length === 0 && dated.size === 0) return { routes: [], warnings: [], seconds: (performance.now() - started) / 1000 };
    const { files: markdown, saved } = applyChanges(state.files.markdown, mdChanges);
    const categories = categoryChanges.length > 0 ? applyChanges(state.files.categories, categoryChanges).files : state.files.categories;
    const displayPrefix = state.context.markdown.displayPrefix;
    const options = { files: markdown, categories, sidebars: state.config.sidebars, homepageDoc: state.config.homepageDoc, displayPrefix };
    // A save that changed bodies alone (the usual one) touches nothing but its own pages.
    const bodies = categoryChanges.length === 0 && saved.length === mdChanges.length ? withBodies(state.content, saved, options) : undefined;
    let content: ContentTree;
    let affected: number[];
    if (bodies) {
      ({ tree: content, changed: affected } = bodies);
    } else {
      content = collectContent(options, state.content);
      const before = state.content.docs.map((doc) => doc.route);
      const after = content.docs.map((doc) => doc.route);
      if (before.length !== after.length || before.some((route, i) => route !== after[i])) return 'full';
      // A sidebar collected again (one of its files changed) may still be the same.
      const changedSidebars = new Set(Object.keys(content.sidebars).filter((id) => content.sidebars[id] !== state.content.sidebars[id] && JSON.stringify(content.sidebars[id]) !== JSON.stringify(state.content.sidebars[id])));
      const changedFiles = new Set(changes.map((change) => change.rel));
      // A page whose pagination names a page by id (another sidebar's, maybe) shows that page's label: it
      // is rendered again with the pages whose sidebars changed (content.ts `paginate`).
      const paginated = (doc: (typeof content.docs)[number]): boolean => typeof doc.frontmatter.pagination_next === 'string' || typeof doc.frontmatter.pagination_prev === 'string';
      // And a page whose Previous or Next link now reads otherwise: a neighbour's `pagination_label`, which
      // is in no sidebar, changed.
      const old = state.content.docs;
      const linksMoved = (doc: (typeof content.docs)[number], i: number): boolean => JSON.stringify([doc.prev, doc.next]) !== JSON.stringify([old[i]!.prev, old[i]!.next]);
      affected = content.docs.flatMap((doc, i) => (changedFiles.has(doc.rel) || changedSidebars.has(doc.sidebar) || (changedSidebars.size > 0 && paginated(doc)) || linksMoved(doc, i) ? [i] : []));
    }
    if (dated.size > 0) affected = [...new Set([...affected, ...content.docs.flatMap((doc, i) => (dated.has(doc.rel) ? [i] : []))])].sort((a, b) => a - b);
    // Jobs for the affected pages only: the others keep their results.
    const jobs = jobsOf({ content: { ...content, docs: affected.map((i) => content.docs[i]!) }, config: state.config, lastUpdates: lastUpdates ?? state.lastUpdates, api: state.api });

    const scratch = mkdtempSync(join(dirname(this.outDir), '.docs-serve-'));
    let builder: PageBuilder | undefined;
    try {
      const context = { ...state.context, markdown: { ...state.context.markdown, routeOfFile: content.routeOfFile }, sidebars: content.sidebars, outDir: scratch };
      const results: PageResult[] = [...state.results];
      if (this.thread) {
        const pool = this.thread();
        if (!pool) throw new Error('the server is stopping');
        const rendered = await pool.run(context, jobs);
        for (const [n, i] of affected.entries()) results[i] = rendered[n]!;
      } else {
        builder = this.builder!.retarget(context);
        for (const [n, i] of affected.entries()) results[i] = await builder.build(jobs[n]!);
      }
      nameGeneratedSources(results, state.api.source, displayPrefix, state.root);
      // Only the re-rendered pages and the pages linking to their anchors are checked again.
      this.links ??= new LinkChecker(state.results);
      // The site's warnings as a build gives them: the announcement's too, its links to a section
      // checked again (the section may have gone with the save).
      const { anchors } = state.announcement;
      const anchored = new Set(anchors.map((anchor) => anchor.route));
      const announcement = { errors: [], warnings: [...state.announcement.warnings, ...announcementAnchors(anchors, results.filter((result) => anchored.has(result.route)))] };
      const warnings = checkResults(results, this.links.update(state.results, results, affected), announcement);
      for (const i of affected) {
        for (const file of results[i]!.files) {
          // An image two changed pages share is moved once.
          if (!existsSync(join(scratch, file))) continue;
          const target = join(this.outDir, file);
          mkdirSync(dirname(target), { recursive: true });
          renameSync(join(scratch, file), target);
        }
      }
      writeFileSync(join(this.outDir, 'manifest.json'), manifestText(state.config, content, results));
      if (builder) {
        // Settings that changed (a new theme) gave the new builder a highlighter of its own: the old one goes.
        if (!builder.sharesRenderer(this.builder!)) this.builder!.dispose();
        this.builder = builder;
        builder = undefined;
      }
      this.state = { ...state, files: { markdown, categories }, content, results, lastUpdates: lastUpdates ?? state.lastUpdates };
      return { routes: affected.map((i) => content.docs[i]!.route), warnings, seconds: (performance.now() - started) / 1000 };
    } catch (error) {
      // The checker saw the pages of an update that did not happen: the next one starts afresh.
      this.links = undefined;
      throw error;
    } finally {
      // A builder of an update that did not happen, with a highlighter of its own, goes with it.
      if (builder && !builder.sharesRenderer(this.builder!)) builder.dispose();
      rmSync(scratch, { recursive: true, force: true });
    }
  }
}
