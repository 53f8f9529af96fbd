/**
 * Blocks left open: a `:::note` without its closing `:::`, or a code fence without its closing fence,
 * swallows the rest of the page without a word from the parser. Both are errors, so a page never ends
 * up silently wrong.
 */
import type { Code, Root } from 'mdast';
import type { ContainerDirective } from 'mdast-util-directive';
import type { Diagnostic } from '../../../util/errors';
import { walk } from '../walk';

/**
 * Raw HTML whose text runs to its closing tag, or to the end of the page: a comment, and the elements
 * whose content is text to the browser (what the cleaning removes with its text, or shows as it is).
 */
const RAW_TEXT = /^<(!--|(?:script|style|template|textarea|title|xmp|iframe|noembed|noframes|plaintext)\b)/i;

/** Nodes whose children are text: raw HTML in them is a tag of a paragraph, not a block. */
const PHRASING = new Set(['paragraph', 'heading', 'emphasis', 'strong', 'delete', 'link', 'linkReference', 'tableCell']);

/**
 * Warnings for raw-text elements opened in running text and not closed in it (`Put your CSS in a
 * <style> element`): the browser, and the cleaning, take the rest of the paragraph as the element's
 * text, and it is gone from the page.
 */
export function findSwallowed(tree: Root, file: string): Diagnostic[] {
  const problems: Diagnostic[] = [];
  walk(tree, (node) => {
    if (!PHRASING.has(node.type) || !node.children) return;
    const children = node.children as unknown as { type: string; value?: string; position?: { start: { line: number; column: number } } }[];
    children.forEach((child, i) => {
      if (child.type !== 'html') return;
      const opener = RAW_TEXT.exec(child.value ?? '')?.[1];
      if (!opener || opener === '!--' || closes(child.value!, opener)) return;
      if (children.slice(i + 1).some((later) => later.type === 'html' && closes(later.value ?? '', opener))) return;
      const written = `<${opener.toLowerCase()}>`;
      problems.push({ file, line: child.position?.start.line, column: child.position?.start.column, message: `\`${written}\` in running text opens an element that takes in the rest of the paragraph, which then does not show`, fix: `write it as code: \`${written}\`, or close it with \`</${opener.toLowerCase()}>\`` });
    });
  });
  return problems;
}

/** True when `html` (a node's value, from `<`) closes what it opens. */
function closes(html: string, opener: string): boolean {
  return opener === '!--' ? html.includes('-->') : new RegExp(`</${opener}\\s*>`, 'i').test(html);
}

/** The errors for unclosed containers and fences in `tree`, parsed from `source`. */
export function findUnclosed(tree: Root, source: string, file: string): Diagnostic[] {
  const lines = source.split('\n');
  const problems: Diagnostic[] = [];
  walk(tree, (node, parent) => {
    const position = (node as { position?: { start: { line: number; column: number }; end: { line: number } } }).position;
    if (!position) return;
    const first = lines[position.start.line - 1] ?? '';
    const last = lines[position.end.line - 1] ?? '';
    if (node.type === 'containerDirective') {
      const opening = /^\s*(:{3,})/.exec(first)?.[1];
      if (opening && (position.end.line === position.start.line || !new RegExp(`^\\s*:{${opening.length},}\\s*$`).test(last))) {
        problems.push({
          file,
          line: position.start.line,
          column: position.start.column,
          message: `\`${opening}${(node as unknown as ContainerDirective).name}\` is never closed, so it takes in the rest of the page`,
          fix: `add a line with \`${opening}\` where the block ends`,
        });
      }
    } else if (node.type === 'html' && !PHRASING.has(parent.type)) {
      // A block that opens a comment or a raw-text element and never closes it runs to the end of the page.
      const value = (node as unknown as { value: string }).value;
      const opener = RAW_TEXT.exec(value.trimStart())?.[1];
      if (opener && !closes(value, opener)) {
        const written = opener === '!--' ? '<!--' : `<${opener.toLowerCase()}>`;
        problems.push({
          file,
          line: position.start.line,
          column: position.start.column,
          message: `\`${written}\` is never closed, so it takes in the rest of the page`,
          fix: opener === '!--' ? 'end the comment with `-->`' : `close it with \`</${opener.toLowerCase()}>\`, or write it as code: \`${written}\``,
        });
      }
      return 'skip';
    } else if (node.type === 'code') {
      const fence = /^\s*(`{3,}|~{3,})/.exec(first)?.[1];
      const closed = fence !== undefined && position.end.line > position.start.line && new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).test(last);
      if (fence && !closed) {
        problems.push({
          file,
          line: position.start.line,
          column: position.start.column,
          message: `code fence \`${fence}${(node as unknown as Code).lang ?? ''}\` is never closed, so the rest of the page shows as code`,
          fix: `add a line with \`${fence}\` where the code ends`,
        });
      }
    }
  });
  return problems;
}
