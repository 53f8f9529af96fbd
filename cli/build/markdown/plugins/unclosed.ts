/**
 * Blocks left open: a `:::note` without its closing `:::`, a code fence without its closing fence, a
 * `<!--` or a `<style>` block never closed swallows the rest of the page without a word from the
 * parser. All are errors, so a page never ends up silently wrong.
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

/** True when `html` (a node's value, from `<`) closes what it opens. */
function closes(html: string, opener: string): boolean {
  return opener === '!--' ? html.includes('-->') : new RegExp(`</${opener}\\s*>`, 'i').test(html);
}

/**
 * The errors for unclosed containers, fences, comments and raw-text blocks in `tree`, parsed from
 * `source`; and warnings for raw-text elements opened in running text and not closed in it (`Put
 * your CSS in a <style> element`): the browser, and the cleaning, take the rest of the paragraph as
 * the element's text, and it is gone from the page.
 */
export function findUnclosed(tree: Root, source: string, file: string): { errors: Diagnostic[]; warnings: Diagnostic[] } {
  const lines = source.split('\n');
  const problems: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
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
    } else if (node.type === 'html' && PHRASING.has(parent.type)) {
      const value = (node as unknown as { value: string }).value;
      const opener = RAW_TEXT.exec(value)?.[1];
      if (!opener || opener === '!--' || closes(value, opener)) return;
      const after = parent.children!.slice(parent.children!.indexOf(node) + 1) as unknown as { type: string; value?: string }[];
      if (after.some((later) => later.type === 'html' && closes(later.value ?? '', opener))) return;
      const written = `<${opener.toLowerCase()}>`;
      warnings.push({ file, line: position.start.line, column: position.start.column, message: `\`${written}\` in running text opens an element that takes in the rest of the paragraph, which then does not show`, fix: `write it as code: \`${written}\`, or close it with \`</${opener.toLowerCase()}>\`` });
    } else if (node.type === 'html') {
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
      // A fence starts where the node does; an indented code block that shows a fence starts with its indent.
      const fence = /^(`{3,}|~{3,})/.exec(first.slice(position.start.column - 1))?.[1];
      const closed = fence !== undefined && position.end.line > position.start.line && new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).test(last);
      // Unclosed in a list item or a quote that ends, the block ends with it (CommonMark): what follows is not taken in.
      const toTheEnd = source.slice((position as { end: { offset?: number } }).end.offset ?? source.length).trim() === '';
      if (fence && !closed && toTheEnd) {
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
  return { errors: problems, warnings };
}
