/**
 * rehype plugin: stable heading ids (github-slugger, duplicates suffixed `-1`, `-2`; Docusaurus'
 * explicit `{#id}`; never one of the layout's own ids), an anchor link in each h2–h6, the table of
 * contents of the configured levels, and every id on the page for anchor checks.
 * A leading h1 is taken out of the body and handed back: the layout renders the page's h1 (markdown/index.ts).
 */
import type { Element, Root } from 'hast';
import GithubSlugger, { slug } from 'github-slugger';
import { toString } from 'hast-util-to-string';
import { walk } from '../walk';
import type { TocEntry } from '../../../../runtime/manifest';
import type { Diagnostic } from '../../../util/errors';

export interface HeadingsOptions {
  toc: { minLevel: number; maxLevel: number };
  /** Receives the TOC entries. */
  entries: TocEntry[];
  /** Receives every element id on the page. */
  ids: Set<string>;
  /** File name for warnings. */
  file: string;
  /** Receives a warning for each heading whose text repeats an earlier one (its id gets a suffix). */
  warnings: Diagnostic[];
}

const HEADING = /^h([1-6])$/;

/** True for elements with the `sr-only` class; the Heading component gives them no anchor link either. */
function isVisuallyHidden(node: Element): boolean {
  const className = node.properties.className;
  return Array.isArray(className) && className.includes('sr-only');
}

/** Ids of the layout's own elements (runtime/components, templates/page.html): no heading takes one. */
const LAYOUT_IDS = ['main', 'search-results', '__docs', '__DOCS_DATA__'];

/** Docusaurus' explicit heading id, at the end of the heading: `## Set-up {#install}`. */
const EXPLICIT_ID = /\s*\{#([^\s{}]+)\}\s*$/;

/** Takes an explicit `{#id}` off the end of `node`'s text and returns the id, if it has one. */
function takeExplicitId(node: Element): string | undefined {
  const last = node.children[node.children.length - 1];
  if (!last || last.type !== 'text') return undefined;
  const match = EXPLICIT_ID.exec(last.value);
  if (!match) return undefined;
  last.value = last.value.slice(0, match.index);
  if (last.value === '') node.children.pop();
  return match[1];
}

export function rehypeHeadings(options: HeadingsOptions) {
  return (tree: Root): Element | undefined => {
    const first = tree.children.find((node) => node.type === 'element');
    const leading = first && first.type === 'element' && first.tagName === 'h1' ? first : undefined;
    if (leading) {
      tree.children.splice(tree.children.indexOf(leading), 1);
      takeExplicitId(leading);
    }
    const slugger = new GithubSlugger();
    for (const id of LAYOUT_IDS) slugger.occurrences[id] = 0;
    // Explicit ids first, so a heading's own slug never takes one a later heading names.
    const explicit = new Map<Element, string>();
    walk(tree, (walked) => {
      if (walked.type !== 'element' || !HEADING.test((walked as unknown as Element).tagName)) return;
      const node = walked as unknown as Element;
      const wanted = typeof node.properties.id === 'string' ? undefined : takeExplicitId(node);
      if (wanted === undefined) return;
      let id = wanted;
      for (let n = 1; Object.hasOwn(slugger.occurrences, id); n++) id = `${wanted}-${n}`;
      if (id !== wanted) {
        options.warnings.push({
          file: options.file,
          line: node.position?.start.line,
          column: node.position?.start.column,
          message: `the heading id {#${wanted}} is ${LAYOUT_IDS.includes(wanted) ? "one of the page's own" : 'taken by an earlier heading'}, so this heading's anchor is #${id}`,
          fix: 'give the heading an id of its own',
        });
      }
      slugger.occurrences[id] = 0;
      explicit.set(node, id);
    });
    const seen = new Map<string, number | undefined>();
    walk(tree, (walked) => {
      if (walked.type !== 'element') return;
      const node = walked as unknown as Element;
      const match = HEADING.exec(node.tagName);
      if (typeof node.properties.id === 'string') options.ids.add(node.properties.id);
      if (!match) return;
      // A visually hidden heading (GFM's "Footnotes") is for screen readers, not for the TOC.
      if (isVisuallyHidden(node)) return;
      const level = Number(match[1]);
      // Composed (NFC), as routes are: a heading typed with decomposed accents gets the id a link typed anywhere names.
      const text = toString(node).trim().normalize('NFC');
      const base = slug(text);
      // A heading of emoji or punctuation alone (`## 🚀`) slugs to nothing: an empty id is no anchor
      // (its TOC link would go to the top), so it is `section`, `section-1`…
      const named = explicit.get(node);
      const id = typeof node.properties.id === 'string' ? node.properties.id : (named ?? slugger.slug(base === '' ? 'section' : text));
      if (base === '' || named !== undefined) {
        // Two such headings do not repeat each other (their ids differ all the same), and an explicit id is the writer's.
      } else if (seen.has(base) && id !== base) {
        const earlier = seen.get(base);
        options.warnings.push({
          file: options.file,
          line: node.position?.start.line,
          column: node.position?.start.column,
          message: `heading "${text}" repeats the heading${earlier ? ` on line ${earlier}` : ''}; its anchor becomes #${id}, which breaks as soon as either heading changes`,
          fix: 'give the headings distinct titles, e.g. add what each one is about',
        });
      } else if (!seen.has(base)) seen.set(base, node.position?.start.line);
      node.properties.id = id;
      options.ids.add(id);
      if (level >= options.toc.minLevel && level <= options.toc.maxLevel) options.entries.push({ id, text, level });
    });
    return leading;
  };
}
