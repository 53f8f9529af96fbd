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

/** What may stand before a block's first text on its line: indentation, quote and list markers. */
const LINE_START = /^(\s*([>*+-]|\d{1,9}[.)]))*\s*$/;

/** A `:::` line the directive parser did not take: an opening (with its name and what follows), or a bare closing. */
const FENCE_TEXT = /^(:{3,})([A-Za-z][\w-]*)?(.*)$/;

/**
 * The warning for a line of running text that starts with `:::` (the text `segment` of source line
 * `line`): the parser took no block there, so the page shows the colons. An opening whose title is
 * never closed (`:::note[Setup`), or a closing with no block open (one `:::` too many).
 */
function strayFence(segment: string, sourceLine: string, file: string, line: number): Diagnostic | undefined {
  const match = FENCE_TEXT.exec(segment.trimEnd());
  // An escaped `\:::` is text by the writer's wish.
  if (!match || !/(^|[^\\:]):{3}/.test(sourceLine)) return undefined;
  const [, colons, name, rest] = match as unknown as [string, string, string | undefined, string];
  const column = sourceLine.indexOf(colons) + 1;
  if (!name) return { file, line, column, message: `\`${colons}\` closes no block (none is open here), so it is shown as text`, fix: `remove the line, or open the block above it with a line like \`${colons}note\`` };
  const written = `${colons}${name}${rest}`;
  const unclosedTitle = rest.startsWith('[') && !rest.includes(']');
  return {
    file,
    line,
    column,
    message: `\`${written}\` opens no block, so it is shown as text${unclosedTitle ? ' (its title is never closed)' : ''}`,
    fix: unclosedTitle ? `close the title: \`${colons}${name}${rest}]\`` : `write the opening line as \`${colons}${name}\` or \`${colons}${name}[Title]\`, alone on its line`,
  };
}

/**
 * The errors for unclosed containers, fences, comments and raw-text blocks in `tree`, parsed from
 * `source`; and warnings for raw-text elements opened in running text and not closed in it (`Put
 * your CSS in a <style> element`): the browser, and the cleaning, take the rest of the paragraph as
 * the element's text, and it is gone from the page; and for `:::` lines no block took (`strayFence`).
 */
export function findUnclosed(tree: Root, source: string, file: string): { errors: Diagnostic[]; warnings: Diagnostic[] } {
  const lines = source.split('\n');
  const problems: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  /** Paragraphs that already have a stray `:::` line reported: its closing line is the same mistake. */
  const strayIn = new Set<object>();
  /**
   * Blocks closed by a `:::` line inside a code block they hold (a tip showing `:::note` syntax): the
   * parser ends the block there, so the code block ends too, and its closing fence opens a new one.
   */
  const cut: { line: number; colons: string; name: string; opened: number; code: number }[] = [];
  /** A code node's opening fence (none for an indented block), and whether its last line closes it. */
  const fenceOf = (code: Code): { fence?: string; closed: boolean } => {
    const { start, end } = code.position!;
    const fence = /^(`{3,}|~{3,})/.exec((lines[start.line - 1] ?? '').slice(start.column - 1))?.[1];
    return { fence, closed: fence !== undefined && end.line > start.line && new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).test(lines[end.line - 1] ?? '') };
  };
  walk(tree, (node, parent) => {
    const position = (node as { position?: { start: { line: number; column: number }; end: { line: number } } }).position;
    if (!position) return;
    if (node.type === 'text' && parent.type === 'paragraph' && !strayIn.has(parent)) {
      const segments = (node as unknown as { value: string }).value.split('\n');
      for (const [k, segment] of segments.entries()) {
        // A segment other than the first starts a line; the first does when the text starts its line.
        if (!segment.startsWith(':::') || (k === 0 && !LINE_START.test((lines[position.start.line - 1] ?? '').slice(0, position.start.column - 1)))) continue;
        const stray = strayFence(segment, lines[position.start.line - 1 + k] ?? '', file, position.start.line + k);
        if (stray) {
          warnings.push(stray);
          strayIn.add(parent);
          break;
        }
      }
      return;
    }
    const first = lines[position.start.line - 1] ?? '';
    const last = lines[position.end.line - 1] ?? '';
    if (node.type === 'containerDirective') {
      const opening = /^\s*(:{3,})/.exec(first)?.[1];
      const name = (node as unknown as ContainerDirective).name;
      if (opening) {
        walk(node as unknown as Root, (inner) => {
          const code = inner as unknown as Code;
          if (inner.type === 'code' && code.position && code.position.end.line >= position.end.line - 1) {
            const { fence, closed } = fenceOf(code);
            if (fence === undefined || closed) return;
            cut.push({ line: position.end.line, colons: opening, name, opened: position.start.line, code: code.position.start.line });
          }
        });
      }
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
      const { fence, closed } = fenceOf(node as unknown as Code);
      // Unclosed in a list item or a quote that ends, the block ends with it (CommonMark): what follows is not taken in.
      const toTheEnd = source.slice((position as { end: { offset?: number } }).end.offset ?? source.length).trim() === '';
      const cutBy = fence && !closed && toTheEnd ? cut.filter((block) => block.line < position.start.line).at(-1) : undefined;
      if (cutBy) {
        const more = `${cutBy.colons}:`;
        problems.push({
          file,
          line: cutBy.line,
          column: 1,
          message: `\`${cutBy.colons}\` inside the code block of line ${cutBy.code} closes the \`${cutBy.colons}${cutBy.name}\` of line ${cutBy.opened}, so the code block ends there and its fence at line ${position.start.line} opens a new one that is never closed`,
          fix: `open and close the \`${cutBy.name}\` block with more colons than any line inside it: \`${more}${cutBy.name}\` at line ${cutBy.opened} and \`${more}\` where it ends`,
        });
      } else if (fence && !closed && toTheEnd) {
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
