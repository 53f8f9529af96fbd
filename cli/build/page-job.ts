/**
 * One page, from markdown to files on disk: markdown (or the markdown cache's entry the job carries),
 * layout render, `index.html` and the page's data chunk. Runs inside a worker thread, or in-process
 * for tests and `docs serve`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { frontmatterBody } from './frontmatter-body';
import { deepHtmlLine, tooDeepProblem } from './markdown/plugins/limits';
import { normaliseText } from './sources';
import type { HydrationData, LastUpdated, PageData, PageLink, PageMeta, SidebarItem, SiteData, TocEntry } from '../../runtime/manifest';
import { DocsError, type Diagnostic } from '../util/errors';
import { insideOutput, ioError, sameBytes } from './write';
import { outputOfStaging } from './publish';
import { ensureDir } from '../util/fs';
import { hash } from '../util/hash';
import { readImage, type PageImage, type Unpublishable } from './images';
import { createMarkdownRenderer, type MarkdownOptions, type MarkdownRenderer, type LeadingHeading, type RenderedMarkdown, type ResolvedFile } from './markdown/index';
import type { FoundLink } from './markdown/plugins/links';
import { sameAnswers, siteRoutes, type RouteLookups } from './markdown/route-lookups';
import { renderPage, type AssetUrls } from './render';
import type { SearchBlock } from '../../runtime/search/format';
import { markdownKey, type BuildStore } from './store';
import type { PageCost } from './lanes';

/** What every page job of one build shares. */
export interface PageJobContext {
  site: SiteData;
  markdown: MarkdownOptions;
  template: string;
  assets: AssetUrls;
  /** Absolute content folder. */
  contentDir: string;
  /** Absolute output folder being written. */
  outDir: string;
  /**
   * The output folder a rebuild updates in place (`outDir` is then its staging folder): a file named
   * by its content's hash (data chunk, image) that it already holds is not written again.
   */
  published?: string;
  /**
   * The markdown cache: the build store's folder (each thread opens the store itself) and the salt of
   * every markdown key (`markdownSalt`). None with `--no-cache` and in `docs serve`'s updates.
   */
  cache?: { dir: string; salt: string };
  manifestUrl: string;
  /** Edit-link prefix (before the path below the content folder). */
  editUrl: string;
  sidebars: Record<string, SidebarItem[]>;
}

/** One page to build. */
export interface PageJob {
  rel: string;
  id: string;
  route: string;
  sidebar: string;
  title: string;
  description?: string;
  hideToc: boolean;
  /** Frontmatter `toc_min_heading_level` / `toc_max_heading_level`, when either is set: the page's table of contents levels. */
  tocLevels?: { minLevel?: number; maxLevel?: number };
  /** Frontmatter `hide_title`: no h1 from the title (the body's own h1 still shows). */
  hideTitle?: boolean;
  /** The markdown body; undefined when the worker is to read it from the page's file (`readPageLean`). */
  body?: string;
  /** Hash of the body, for the page's output key. */
  bodyHash: string;
  /** What the page costs a render thread, when the body is not given (lanes.ts). */
  cost?: PageCost;
  breadcrumbs: PageLink[];
  prev?: PageLink;
  next?: PageLink;
  lastUpdated?: LastUpdated;
  /** Edit link, when not the content folder's (generated API pages link to their spec, a page's `custom_edit_url`); '' for none. */
  editUrl?: string;
}

/** What the main thread needs back from a page. */
export interface PageResult {
  route: string;
  /** URL of the page's data chunk. */
  dataUrl: string;
  /** True when the page holds a mermaid diagram. */
  mermaid: boolean;
  links: FoundLink[];
  ids: string[];
  warnings: Diagnostic[];
  errors: Diagnostic[];
  /**
   * The page could not be written to the output folder (a full disk, a permission): the reader's to
   * fix there, not the page's (exit 2, naming the output's file).
   */
  outputErrors?: Diagnostic[];
  /** True when the markdown came from the cache or the whole page from the previous output. */
  cached: boolean;
  /** Files written for the page, relative to the output folder (HTML, data chunk, images). */
  files: string[];
  /** The local images the page shows. */
  images: PageImage[];
  /**
   * The page's text for the search index. With a cache it stays in the store (`search`, by the page's
   * markdown key), so the main thread never holds the site's text: the index reads it page by page.
   */
  search?: SearchBlock[];
  /** The page's markdown cache key, when the build has a cache. */
  markdownKey?: string;
  /** What the page's links asked of the site's routes, and the answers: its output stands while they are the same (pages.ts `previousResults`). */
  routeLookups?: RouteLookups;
}

/** The markdown stage's result for one page, as the markdown cache keeps it (its search blocks apart, in the store's `search`). */
export interface MarkdownEntry extends Omit<RenderedMarkdown, 'search'> {
  /** Images the page uses; the entry holds only while each still has the same bytes (its HTML names their files). */
  images: PageImage[];
}

/** Builds pages; holds the highlighter, so create one per thread. */
export class PageBuilder {
  private renderer: Promise<MarkdownRenderer> | undefined;
  /** Folders this builder has created. */
  private readonly createdDirs = new Set<string>();

  constructor(
    private readonly context: PageJobContext,
    /** A highlighter already being started (worker threads start it before their first page). */
    private readonly highlighter?: Promise<unknown>,
    /** The build store holding the markdown cache (`context.cache`), opened by the thread. */
    private readonly store?: BuildStore,
  ) {}

  /** The markdown renderer, started on first use; call early so the first page does not wait for it. */
  warm(): Promise<MarkdownRenderer> {
    this.renderer ??= createMarkdownRenderer(this.context.markdown, this.highlighter);
    return this.renderer;
  }

  /**
   * Lets this builder's highlighter go: a process that makes builders again and again (`docs serve`,
   * one per full build and per save) kept every one, some hundreds of kilobytes each, and shiki warned
   * of each tenth. A builder `retarget` made from this one may share it: see `sharesRenderer`.
   */
  dispose(): void {
    const renderer = this.renderer;
    this.renderer = undefined;
    void renderer?.then((ready) => ready.dispose(), () => undefined);
  }

  /** True when this builder and `other` render with the same renderer (one made from the other by `retarget`, same settings). */
  sharesRenderer(other: PageBuilder): boolean {
    return this.renderer === other.renderer;
  }

  /**
   * A builder for another context (another output folder, new sidebars) that keeps this one's warm
   * highlighter while the markdown settings are the same: `docs serve` renders a page in milliseconds.
   */
  retarget(context: PageJobContext): PageBuilder {
    const next = new PageBuilder(context, this.highlighter, context.cache ? this.store : undefined);
    if (sameMarkdownSettings(context.markdown, this.context.markdown)) next.renderer = this.renderer;
    return next;
  }

  /**
   * Renders and writes one page. A problem of the page's own — a path that would leave the output, a
   * stack overflow in a library's tree walk, a file that cannot be written — comes back as the page's
   * error, naming its file, so one page cannot crash the build.
   */
  async build(job: PageJob): Promise<PageResult> {
    try {
      return await this.buildPage(job);
    } catch (error) {
      const file = this.context.markdown.displayPrefix + job.rel;
      const failed = (diagnostics: Diagnostic[]): PageResult => ({ route: job.route, dataUrl: '', mermaid: false, links: [], ids: [], warnings: [], errors: diagnostics, cached: false, files: [], images: [], search: [] });
      if (error instanceof DocsError) return failed(error.diagnostics.map((diagnostic) => ({ ...diagnostic, file: diagnostic.file === job.rel ? file : diagnostic.file })));
      if (error instanceof RangeError && /call stack/i.test(error.message)) {
        // Where its raw HTML nests deepest, when that is what ran the renderer out of stack.
        let line: number | undefined;
        try {
          line = deepHtmlLine(job.body ?? this.readBody(job.rel));
        } catch {
          // The file is gone as well: the problem without a line.
        }
        return failed([tooDeepProblem(file, line)]);
      }
      const written = (error as { outputRel?: unknown } | undefined)?.outputRel;
      if (typeof written === 'string') {
        const output = ioError(error, join(this.context.published ?? outputOfStaging(this.context.outDir), written), 'cannot be written to the output');
        // A failed page all the same (its errors), and said as the output's (checkResults).
        if (output instanceof DocsError) return { ...failed(output.diagnostics), outputErrors: output.diagnostics };
      }
      const io = ioError(error, file, 'cannot be written to the output');
      if (io instanceof DocsError) return failed(io.diagnostics);
      throw error;
    }
  }

  private async buildPage(job: PageJob): Promise<PageResult> {
    const { markdown, images, cached, key } = await this.markdownOf(job);
    const { context } = this;
    const meta: PageMeta = {
      route: job.route,
      id: job.id,
      title: job.title,
      ...pageHeading(markdown.heading, job.title),
      description: job.description,
      sidebar: job.sidebar,
      toc: tocOf(markdown.toc, context.markdown.toc, job.tocLevels),
      hideToc: job.hideToc,
      ...(job.hideTitle ? { hideTitle: true } : {}),
      editUrl: job.editUrl === '' ? undefined : (job.editUrl ?? context.editUrl + job.rel),
      lastUpdated: job.lastUpdated,
      breadcrumbs: job.breadcrumbs,
      prev: job.prev,
      next: job.next,
      hasMermaid: markdown.hasMermaid,
      hasTabs: markdown.hasTabs,
    };
    const data: HydrationData = { site: context.site, page: meta, manifestUrl: context.manifestUrl };
    const files = [routeFile(job.route), ...images.map((image) => image.file)];
    const html = renderPage({ template: context.template, assets: context.assets, data, html: markdown.html, sidebar: context.sidebars[job.sidebar] });
    this.writeFile(routeFile(job.route), html);
    const chunk = pageChunk({ ...meta, html: markdown.html });
    const dataUrl = `/assets/pages/${routeSlug(job.route)}.${hash(chunk).slice(0, 8)}.js`;
    this.writeHashed(dataUrl, chunk);
    files.push(dataUrl.slice(1));
    const result: PageResult = { route: job.route, dataUrl, mermaid: markdown.hasMermaid, links: markdown.links, ids: markdown.ids, warnings: markdown.warnings, errors: markdown.errors, cached, files, images, routeLookups: markdown.routeLookups };
    if (key) result.markdownKey = key;
    else result.search = markdown.search;
    return result;
  }

  /**
   * The page's markdown: the cache's entry when its key matches, the site's routes answer its links
   * as they did (route-lookups.ts) and its images still have the same bytes, else rendered (and,
   * without errors, put in the cache for the next build, under the same key).
   */
  private async markdownOf(job: PageJob): Promise<{ markdown: Omit<RenderedMarkdown, 'search'> & { search?: SearchBlock[] }; images: PageImage[]; cached: boolean; key?: string }> {
    const { cache } = this.context;
    const body = job.body ?? this.readBody(job.rel);
    const key = cache && this.store ? markdownKey(cache.salt, job.rel, body) : undefined;
    const entry = key ? this.store!.markdown.get(key) : undefined;
    if (entry && sameAnswers(entry.routeLookups, siteRoutes(this.context.markdown.routeOfFile)) && entry.images.every((image) => this.copiedAs(image))) return { markdown: entry, images: entry.images, cached: true, key };
    const rendered = await this.render(job.rel, body);
    // Written in the background (LMDB batches a thread's writes into one transaction); a cache that
    // cannot be written costs the next build its speed, not this build. Both writes go in the same
    // transaction (those of one tick are batched), so an entry is never found without its blocks.
    // After a failed commit (a full disk) LMDB refuses further writes at once, by a throw: the build
    // goes on, and finds out when it flushes the store (pages.ts).
    if (key && rendered.markdown.errors.length === 0) {
      const { search, ...markdown } = rendered.markdown;
      try {
        this.store!.search.put(key, search).catch(() => undefined);
        this.store!.markdown.put(key, { ...markdown, images: rendered.images }).catch(() => undefined);
      } catch {
        // Nothing to do here: the store's flush fails too, and the build renders these pages again.
      }
    }
    return { ...rendered, cached: false, key };
  }

  /**
   * A page's body read again from its file, as the main thread read it (`readContentFolder`,
   * `parseFrontmatter`). A file removed since is the page's error; one changed since is rendered as it
   * is now, and its new stat makes the next build take it again.
   */
  private readBody(rel: string): string {
    let text: string;
    try {
      text = readFileSync(join(this.context.contentDir, rel), 'utf8');
    } catch (error) {
      throw new DocsError('content', [{ file: rel, message: `was removed or cannot be read any more (${(error as NodeJS.ErrnoException).code ?? String(error)}) while the build ran`, fix: 'build again' }]);
    }
    return frontmatterBody(normaliseText(text));
  }

  private async render(rel: string, body: string): Promise<{ markdown: RenderedMarkdown; images: PageImage[] }> {
    const renderer = await this.warm();
    const images: PageImage[] = [];
    const copy = (rel: string): ResolvedFile => {
      const image = this.copyImage(rel);
      if (image === false || image === undefined || 'problem' in image) return image;
      images.push(image);
      return `/${image.file}`;
    };
    const markdown = await renderer.render({ rel, body, resolveImage: copy, resolveFile: copy });
    return { markdown, images };
  }

  /** Writes `rel` below the output folder (never elsewhere, see `insideOutput`). */
  // Synchronous on purpose: measured faster here than fs.promises, which pays three thread-pool hops per file.
  private writeFile(rel: string, content: string | Uint8Array): void {
    const path = insideOutput(this.context.outDir, rel);
    try {
      ensureDir(dirname(path), this.createdDirs);
      writeFileSync(path, content);
    } catch (error) {
      // Which file of the output: `build` names it, not the page (a full disk is no fault of the page's).
      throw error instanceof Error ? Object.assign(error, { outputRel: rel }) : error;
    }
  }

  /**
   * Writes a file named by its content's hash, unless the staging has it or the published output holds
   * it with these bytes: a file of that name damaged or emptied there (by hand, by a disk) is written
   * again, though its name says it is right. Only the pages rendered ask, a few in most rebuilds.
   */
  private writeHashed(rel: string, content: string | Uint8Array): void {
    const { outDir, published } = this.context;
    if (existsSync(insideOutput(outDir, rel)) || (published !== undefined && sameBytes(published, rel, content))) return;
    this.writeFile(rel, content);
  }

  /** True when the image a cached entry names still has the bytes its output file is named after (copying it if the output lacks it). */
  private copiedAs(image: PageImage): boolean {
    const copied = this.copyImage(image.source);
    return typeof copied === 'object' && 'file' in copied && copied.file === image.file;
  }

  /** Copies an image below the content folder to its hashed file (see `readImage`); undefined when missing, false when it leads out of the repository, why when it cannot be copied. */
  private copyImage(rel: string): PageImage | Unpublishable | false | undefined {
    const image = readImage(this.context.contentDir, rel);
    if (image === 'outside') return false;
    if (!image || 'problem' in image) return image;
    this.writeHashed(image.file, image.bytes);
    return { source: rel, file: image.file };
  }
}

/** Output file of a route: `/` → `index.html`, `/a/b` → `a/b/index.html`. */
export function routeFile(route: string): string {
  return route === '/' ? 'index.html' : `${route.slice(1)}/index.html`;
}

/**
 * A page's data chunk: an ES module whose default export is the data (`PageModule`). Every key is
 * one of `PageData`'s own, so the JSON is a safe object literal (no `__proto__` key can occur).
 */
export function pageChunk(data: PageData): string {
  return `export default ${JSON.stringify(data)};\n`;
}

/** A file-name-safe form of a route. */
function routeSlug(route: string): string {
  // Part of a file's name: all the segments of a deep route joined went past 255 bytes. The hash after it tells routes apart.
  return route === '/' ? 'index' : route.slice(1).replace(/[^a-zA-Z0-9_-]+/g, '_').slice(0, ROUTE_SLUG_LENGTH);
}

/** The longest route part of a page chunk's name (`assets/pages/<slug>.<hash>.js`). */
const ROUTE_SLUG_LENGTH = 120;

/** True when two markdown settings are equal; the route map (10,000 entries on a large site) compared entry by entry, not serialised. */
function sameMarkdownSettings(a: PageJobContext['markdown'], b: PageJobContext['markdown']): boolean {
  if (JSON.stringify({ ...a, routeOfFile: undefined }) !== JSON.stringify({ ...b, routeOfFile: undefined })) return false;
  if (a.routeOfFile === b.routeOfFile) return true;
  const files = Object.keys(a.routeOfFile);
  return files.length === Object.keys(b.routeOfFile).length && files.every((file) => a.routeOfFile[file] === b.routeOfFile[file]);
}

/** The page's table of contents: the headings of the site's levels, or of those its frontmatter sets. */
function tocOf(headings: TocEntry[], site: { minLevel: number; maxLevel: number }, page: PageJob['tocLevels']): TocEntry[] {
  const min = page?.minLevel ?? site.minLevel;
  const max = page?.maxLevel ?? Math.max(site.maxLevel, min);
  return headings.filter((entry) => entry.level >= min && entry.level <= max);
}

/** The page's `heading` (PageMeta): its leading h1, unless that is the title in plain words. */
function pageHeading(heading: LeadingHeading | undefined, title: string): { heading?: string } {
  return heading && !(heading.plain && heading.text === title) ? { heading: heading.html } : {};
}
