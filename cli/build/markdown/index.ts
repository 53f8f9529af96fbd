/**
 * Stage 3, markdown: one unified pipeline from a page's markdown to its body HTML, TOC, ids and links.
 * The plugin order, and why:
 *   0. limits (plugins/limits.ts) — a page too large or too deeply nested for the parser and the tree
 *      walks after it fails with its line before any of them runs;
 *   1. remark-parse + GFM + remark-directive (plugins/gfm.ts) — GFM syntax and `:::` blocks must be
 *      parsed first;
 *   2. remarkTabs — `:::tabs` code tab sets and `::api-endpoint` lines, before the next step would
 *      restore them as text;
 *   3. remarkAdmonitions — turns known directives into asides and restores every other one as text;
 *   4. remarkLinks — rewrites `.md` links and images while positions still point into the source;
 *   5. mdast → hast (remark-rehype's engine) with the shiki `code` handler, so fences never pass
 *      through as unhighlighted `pre`; raw HTML is parsed and cleaned to an allowlist (plugins/raw-html.ts)
 *      and every URL with a scheme outside the allowlist removed with a warning (plugins/safe-urls.ts),
 *      on the parsed tree so raw HTML and markdown links are judged alike;
 *   6. rehypeHeadings — ids and TOC are computed on the final heading text;
 *   7. rehype-react with the runtime's components, rendered to a string by React.
 */
import { createElement, Fragment } from 'react';
import { jsx, jsxs } from 'react/jsx-runtime';
import { renderToString } from 'react-dom/server';
import type { ReactElement } from 'react';
import type { Element, Root as HastRoot } from 'hast';
import { toString } from 'hast-util-to-string';
import { toHast } from 'mdast-util-to-hast';
import rehypeReact from 'rehype-react';
import type { HighlighterGeneric } from 'shiki';
import { startHighlighter } from './highlighter';
import { loadLanguages, prepareBlocks } from './languages';
import { unified } from 'unified';
import { VFile } from 'vfile';
import type { TocEntry } from '../../../runtime/manifest';
import { markdownComponents } from '../../../runtime/components/markdown/markdown-components';
import type { Diagnostic } from '../../util/errors';
import { normaliseAdmonitionTitles, remarkAdmonitions } from './plugins/admonitions';
import { collectLanguages, renderFence } from './plugins/code';
import { measureDiagrams, type DiagramBox } from './diagrams';
import type { Code } from 'mdast';
import { removedElements, removedHandlers, sanitizeRawHtml } from './plugins/raw-html';
import { removeUnsafeUrls } from './plugins/safe-urls';
import { remarkTabs } from './plugins/tabs';
import { findUnclosed } from './plugins/unclosed';
import { checkFootnotes } from './plugins/footnotes';
import { readMdx } from './plugins/mdx';
import { checkSourceLimits, checkTreeDepth, TooDeepHtml, tooDeepProblem } from './plugins/limits';
import { createParser } from './plugins/gfm';
import { rehypeHeadings } from './plugins/headings';
import { linkResolver, remarkLinks, type FoundLink } from './plugins/links';
import { askingRoutes, lookupsOf, siteRoutes, type RouteLookups } from './route-lookups';
import { listItemHandler } from './plugins/lists';
import { formatSrcset, parseSrcset } from './plugins/srcset';
import { searchBlocks } from '../search/extract';
import type { SearchBlock } from '../../../runtime/search/format';

/** Site-wide markdown settings. */
export interface MarkdownOptions {
  /** Shiki theme of code blocks. */
  codeTheme: string;
  /** Languages loaded up front. */
  highlightLanguages: string[];
  /** The heading levels of a page's table of contents, unless its frontmatter says others (page-job.ts `tocOf`). */
  toc: { minLevel: number; maxLevel: number };
  /** Prefix of file paths in messages, e.g. `content/`. */
  displayPrefix: string;
  /** Route of every markdown file by its path below the content folder. */
  routeOfFile: Record<string, string>;
}

/** One page to render. */
export interface MarkdownInput {
  /** Path below the content folder. */
  rel: string;
  /** Markdown without frontmatter (frontmatter lines blanked). */
  body: string;
  /** Copies a local image and returns its URL (see `ResolvedFile`). */
  resolveImage: (rel: string) => ResolvedFile;
  /** Copies another local file a link names and returns its URL (see `ResolvedFile`). */
  resolveFile: (rel: string) => ResolvedFile;
}

/**
 * A local file a page names, once copied: its URL; undefined when it does not exist; false when it is
 * a link out of the repository; why not when it is there but cannot be copied (images.ts `readImage`).
 */
export type ResolvedFile = string | false | undefined | { problem: string; fix?: string };

/** What the markdown stage produces for one page. */
export interface RenderedMarkdown {
  html: string;
  /** Every heading of the body (h1–h6, but the leading h1): each page's table of contents takes its levels from these. */
  toc: TocEntry[];
  /** Every element id on the page, for anchor checks. */
  ids: string[];
  links: FoundLink[];
  warnings: Diagnostic[];
  errors: Diagnostic[];
  hasMermaid: boolean;
  /** True when the page holds a `:::tabs` set. */
  hasTabs: boolean;
  /** The page's text for the search index, from the same tree as the HTML. */
  search: SearchBlock[];
  /** The body's leading `# h1`, taken out of the body: the page shows it as its h1 (page-job.ts `pageHeading`). */
  heading?: LeadingHeading;
  /** What its links asked of the site's routes, and the answers: it stands while they are the same (route-lookups.ts). */
  routeLookups: RouteLookups;
}

/** A page's leading h1: its inner HTML, its text, and whether it is text alone (no code, emphasis, link…). */
export interface LeadingHeading {
  html: string;
  text: string;
  plain: boolean;
}

/** The leading h1 as the layout shows it: rendered by the same components as the body. */
function headingOf(h1: Element, react: { stringify: (tree: HastRoot, file: VFile) => unknown }): LeadingHeading {
  const element = react.stringify({ type: 'root', children: h1.children as HastRoot['children'] }, new VFile()) as unknown as ReactElement;
  return { html: renderToString(createElement(Fragment, null, element)), text: toString(h1).trim(), plain: h1.children.every((child) => child.type === 'text') };
}

/** The levels the renderer collects: a page's frontmatter may ask for others than the site's (`toc_max_heading_level`). */
const ALL_LEVELS = { minLevel: 1, maxLevel: 6 };

/** A renderer holding one highlighter; create one per worker. */
export interface MarkdownRenderer {
  render(input: MarkdownInput): Promise<RenderedMarkdown>;
  /** Lets the highlighter this renderer started go (its grammars and WebAssembly memory); one it was handed stays its owner's. */
  dispose(): void;
}

/** Creates the highlighter once and returns a renderer that loads further grammars on demand. */
export async function createMarkdownRenderer(options: MarkdownOptions, started?: Promise<unknown>): Promise<MarkdownRenderer> {
  // A highlighter started earlier with the same theme and languages (see cli/build/worker.ts).
  const highlighter = (await (started ?? startHighlighter(options))) as HighlighterGeneric<string, string>;
  const parse = createParser();
  const site = siteRoutes(options.routeOfFile);
  const react = unified().use(rehypeReact, { Fragment, jsx, jsxs, components: markdownComponents }).freeze();
  return {
    dispose() {
      if (!started) highlighter.dispose();
    },
    async render(input) {
      const file = options.displayPrefix + input.rel;
      const warnings: Diagnostic[] = [];
      const errors: Diagnostic[] = [];
      const links: FoundLink[] = [];
      const asked = new Map<string, string | boolean | null>();
      const fail = (problems: Diagnostic[]): RenderedMarkdown => ({ html: '', toc: [], ids: [], links, warnings, errors: problems, hasMermaid: false, hasTabs: false, search: [], routeLookups: lookupsOf(asked) });
      const tooMuch = checkSourceLimits(input.body, file);
      if (tooMuch.length > 0) return fail(tooMuch);
      const source = normaliseAdmonitionTitles(readMdx(input.body, file, warnings, !input.rel.endsWith('.mdx')));
      const mdast = parse(source);
      const tooDeep = checkTreeDepth(mdast, file);
      if (tooDeep.length > 0) return fail(tooDeep);
      const unclosed = findUnclosed(mdast, source, file);
      errors.push(...unclosed.errors);
      warnings.push(...unclosed.warnings);
      checkFootnotes(mdast, file, warnings);
      let hasTabs = false;
      const warn = (message: string, fix: string, line?: number): void => void warnings.push({ file, line, message, fix });
      remarkTabs(() => (hasTabs = true), warn)(mdast);
      remarkAdmonitions(warn)(mdast);
      const resolver = linkResolver({ rel: input.rel, displayPrefix: options.displayPrefix, routes: askingRoutes(site, asked), resolveImage: input.resolveImage, resolveFile: input.resolveFile, links, warnings, errors });
      remarkLinks(resolver)(mdast);
      const loaded = new Set(highlighter.getLoadedLanguages());
      const blocks = collectLanguages(mdast);
      const missing = [...blocks.keys()].filter((lang) => !loaded.has(lang));
      if (missing.length > 0) await loadLanguages(highlighter, missing);
      // A block that may enter a language its grammar embeds gets that grammar whole (languages.ts).
      await prepareBlocks(highlighter, blocks);
      const diagrams = /mermaid/i.test(source) ? await measureDiagrams(mdast, file, warnings) : new Map<Code, DiagramBox>();
      let hasMermaid = false;
      const hast = toHast(mdast, {
        allowDangerousHtml: true,
        handlers: {
          listItem: listItemHandler(),
          code: (_state, node) => renderFence(node, { highlighter, theme: options.codeTheme, file, warnings, onMermaid: () => (hasMermaid = true), diagramBox: (node) => diagrams.get(node) }),
        },
      }) as HastRoot;
      let safe: HastRoot;
      try {
        safe = await sanitizeRawHtml(
          hast,
          (tree, fromRaw) => {
            // Raw HTML's images and links are checked and rewritten as markdown's are.
            for (const element of fromRaw) {
              const { src, href } = element.properties;
              if (element.tagName === 'img' && typeof src === 'string') element.properties.src = resolver.image(src, element);
              else if (element.tagName === 'a' && typeof href === 'string') element.properties.href = resolver.link(href, element);
              const { srcSet } = element.properties;
              if ((element.tagName === 'img' || element.tagName === 'source') && typeof srcSet === 'string') {
                element.properties.srcSet = formatSrcset(parseSrcset(srcSet).map((candidate) => ({ ...candidate, url: resolver.image(candidate.url, element) })));
              }
            }
            removeUnsafeUrls(tree, file, warnings);
            warnings.push(...removedElements(fromRaw, file, source, warnings), ...removedHandlers(fromRaw, file));
          },
          source,
        );
      } catch (error) {
        if (error instanceof TooDeepHtml) return fail([tooDeepProblem(file, error.line)]);
        throw error;
      }
      const toc: TocEntry[] = [];
      const ids = new Set<string>();
      const leading = rehypeHeadings({ toc: ALL_LEVELS, entries: toc, ids, file, warnings })(safe);
      const element = react.stringify(safe, new VFile()) as unknown as ReactElement;
      const html = renderToString(createElement(Fragment, null, element));
      const rendered: RenderedMarkdown = { html, toc, ids: [...ids], links, warnings, errors, hasMermaid, hasTabs, search: searchBlocks(safe), routeLookups: lookupsOf(asked) };
      if (leading) rendered.heading = headingOf(leading, react);
      return rendered;
    },
  };
}
