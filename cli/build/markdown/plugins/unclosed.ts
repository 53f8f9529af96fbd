/**
 * Blocks left open: a `:::note` without its closing `:::`, or a code fence without its closing fence,
 * swallows the rest of the page without a word from the parser. Both are errors, so a page never ends
 * up silently wrong.
 */
import type { Code, Root } from 'mdast';
import type { ContainerDirective } from 'mdast-util-directive';
import type { Diagnostic } from '../../../util/errors';
import { walk } from '../walk';

/** The errors for unclosed containers and fences in `tree`, parsed from `source`. */
export function findUnclosed(tree: Root, source: string, file: string): Diagnostic[] {
  const lines = source.split('\n');
  const problems: Diagnostic[] = [];
  walk(tree, (node) => {
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
