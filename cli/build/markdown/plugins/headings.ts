/**
 * rehype plugin: stable heading ids (github-slugger, duplicates suffixed `-1`, `-2`), an anchor link in
 * each h2–h6, the table of contents of the configured levels, and every id on the page for anchor checks.
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

export function rehypeHeadings(options: HeadingsOptions) {
  return (tree: Root): Element | undefined => {
    const first = tree.children.find((node) => node.type === 'element');
    const leading = first && first.type === 'element' && first.tagName === 'h1' ? first : undefined;
    if (leading) tree.children.splice(tree.children.indexOf(leading), 1);
    const slugger = new GithubSlugger();
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
      const text = toString(node).trim();
      const base = slug(text);
      // A heading of emoji or punctuation alone (`## 🚀`) slugs to nothing: an empty id is no anchor
      // (its TOC link would go to the top), so it is `section`, `section-1`…
      const id = typeof node.properties.id === 'string' ? node.properties.id : slugger.slug(base === '' ? 'section' : text);
      if (base === '') {
        // Two such headings do not repeat each other; their ids differ all the same.
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
