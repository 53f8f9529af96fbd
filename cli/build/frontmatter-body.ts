/**
 * A page's body without its frontmatter, apart from frontmatter.ts: a render thread needs this alone,
 * and frontmatter.ts brings the YAML parser (a seventh of the render worker's code, parsed by every
 * thread of every build).
 */

/** The line that opens and closes a frontmatter block. */
export const FENCE = /^---[ \t]*$/;

/** The lines of `text` and the line of its frontmatter's closing fence: 0 when there is no block, -1 when it is not closed. */
export function frontmatterEnd(text: string): { lines: string[]; end: number } {
  const lines = text.split('\n');
  if (!FENCE.test(lines[0] ?? '')) return { lines, end: 0 };
  return { lines, end: lines.findIndex((line, i) => i > 0 && FENCE.test(line.replace(/\r$/, ''))) };
}

/** The frontmatter lines blanked instead of cut, so markdown positions equal file lines. */
export function blanked(lines: string[], end: number): string {
  return '\n'.repeat(end + 1) + lines.slice(end + 1).join('\n');
}

/**
 * The body `parseFrontmatter` gives for `text`, without reading the frontmatter itself: a render
 * worker reads a page's file again for it (the build's main thread keeps only its hash).
 */
export function frontmatterBody(text: string): string {
  const { lines, end } = frontmatterEnd(text);
  return end > 0 ? blanked(lines, end) : text;
}
