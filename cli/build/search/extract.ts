/**
 * What search keeps of a rendered page: its text in blocks of a few sentences, each under the heading
 * it follows (so a result opens at that heading's `#anchor`). Taken from the page's final hast, the
 * same tree the HTML is rendered from: no second parse. Code blocks, code-sample tabs and diagram
 * sources are left out — they are long, rarely what a reader types, and would crowd the prose out of
 * the results; inline code stays. An API page's method, path and operationId are kept apart, so they
 * can weigh more than the prose.
 */
import type { Element, ElementContent, Root, RootContent } from 'hast';
import { toString } from 'hast-util-to-string';
import type { SearchBlock } from '../../../runtime/search/format';

/** A block holds about this many characters before the next one starts (at a word boundary). */
const BLOCK_CHARS = 400;

/** Elements that start a block of their own; any other element is inline text. */
const BLOCK_TAGS = new Set(['p', 'div', 'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'blockquote', 'details', 'summary', 'dl', 'dt', 'dd', 'section', 'aside', 'figure', 'figcaption', 'hr', 'caption', 'header', 'footer', 'nav']);

/** Elements whose text is not indexed: code blocks, code-sample tab sets, diagrams. */
function skipped(element: Element): boolean {
  if (element.tagName === 'pre' || element.tagName === 'script' || element.tagName === 'style') return true;
  const classes = classesOf(element);
  return classes.includes('code-block') || classes.includes('tabs') || classes.includes('mermaid');
}

function classesOf(element: Element): string[] {
  const classes = element.properties.className;
  return Array.isArray(classes) ? classes.map(String) : [];
}

/** The search blocks of a page body, in order. The first block is the text before the first heading. */
export function searchBlocks(tree: Root): SearchBlock[] {
  const blocks: SearchBlock[] = [];
  let current: SearchBlock = { text: '' };
  let inline = '';

  const close = (): void => {
    if (current.text || current.api || current.heading) blocks.push(current);
  };
  const add = (text: string): void => {
    let rest = text.replace(/\s+/g, ' ').trim();
    while (rest) {
      const room = BLOCK_CHARS - current.text.length;
      if (room < 40 && current.text) {
        close();
        current = { text: '', anchor: current.anchor, heading: current.heading, continued: true };
        continue;
      }
      let take = rest.length <= room ? rest.length : rest.lastIndexOf(' ', room);
      if (take <= 0) take = Math.min(rest.length, Math.max(room, 40));
      current.text = current.text ? `${current.text} ${rest.slice(0, take)}` : rest.slice(0, take);
      rest = rest.slice(take).trim();
    }
  };
  const flush = (): void => {
    if (inline.trim()) add(inline);
    inline = '';
  };
  const visit = (nodes: (RootContent | ElementContent)[]): void => {
    for (const node of nodes) {
      if (node.type === 'text') inline += node.value;
      if (node.type !== 'element') continue;
      if (/^h[1-6]$/.test(node.tagName)) {
        flush();
        close();
        const id = node.properties.id;
        current = { text: '', heading: toString(node).replace(/\s+/g, ' ').trim(), ...(typeof id === 'string' && id ? { anchor: id } : {}) };
      } else if (classesOf(node).includes('api-endpoint')) {
        flush();
        const { dataMethod, dataPath, dataOperation } = node.properties;
        current.api = [dataMethod, dataPath, dataOperation].filter((part) => typeof part === 'string' && part).join(' ').replace(/^(\w+)/, (method) => method.toUpperCase());
        if (typeof dataPath === 'string' && dataPath) current.path = dataPath;
      } else if (skipped(node)) {
        flush();
      } else if (BLOCK_TAGS.has(node.tagName)) {
        flush();
        visit(node.children);
        flush();
      } else if (node.tagName === 'br') {
        inline += ' ';
      } else {
        inline += toString(node);
      }
    }
  };
  visit(tree.children);
  flush();
  close();
  return blocks;
}
