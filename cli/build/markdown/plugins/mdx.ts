/**
 * An `.mdx` page is built as plain markdown (content.ts refuses its `import` and `export` lines,
 * outside the code fences `fenceLines` finds). Two more things of MDX would show as text or vanish
 * without a word: its comments, `{/* … *\/}`, which are taken out (their line breaks stay, so line
 * numbers hold); and its JSX components (`<Tabs>`, `<TabItem>`), which the raw-HTML rules drop,
 * keeping their text: each first use warns at its line.
 */
import type { Diagnostic } from '../../../util/errors';

/** An MDX comment: `{/* … *\/}`, over lines too. */
const MDX_COMMENT = /\{\/\*[\s\S]*?\*\/\}/g;
/** A JSX component's opening tag: a capital letter after `<` (HTML elements are lower case). */
const COMPONENT = /<([A-Z][\w.]*)(?=[\s/>])/g;
/** A code fence's opening or closing line: its marker. */
const FENCE_LINE = /^[ \t]*(`{3,}|~{3,})/;

/** For each line, true when it belongs to a code fence (its opening and closing lines included). */
export function fenceLines(lines: readonly string[]): boolean[] {
  const inFence: boolean[] = [];
  let fence: string | undefined;
  for (const line of lines) {
    const marker = FENCE_LINE.exec(line)?.[1];
    if (fence === undefined && marker) {
      fence = marker;
      inFence.push(true);
    } else if (fence !== undefined) {
      inFence.push(true);
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
    } else inFence.push(false);
  }
  return inFence;
}

/**
 * An MDX `import` or `export` statement, as Docusaurus 3 reads it in a `.md` page too (it compiles every
 * page as MDX): `import Tabs from '@theme/Tabs';`, `export const year = 2025;`. Prose that starts
 * with the word ("import the CSV first") is not one.
 */
const ESM_LINE = /^(?:import\s+(?:['"][^'"]+['"]|[\w*{][^'"]*\bfrom\s+['"][^'"]+['"])|export\s+(?:const|let|var|function|default|\{|class)\b)/;

/**
 * `body` without its MDX comments, and a warning for each JSX component (once per name). Docusaurus 3
 * compiles `.md` pages as MDX too, so a page moved from it may hold them: `markdown` says the page is
 * a `.md` one, whose comments stay as written and whose MDX `import`/`export` lines also warn (an
 * `.mdx` page's are errors, content.ts).
 */
export function readMdx(body: string, file: string, warnings: Diagnostic[], markdown = false): string {
  if (!body.includes('{/*') && !/<[A-Z]/.test(body) && !(markdown && /^(?:import|export)\s/m.test(body))) return body;
  const lines = body.split('\n');
  // Code fences are code: their lines are left as written.
  const inFence = fenceLines(lines);
  // Taken out of the prose between fences, each run of prose at once (a comment may span lines); a
  // `.md` page is markdown as written, its `{/* … */}` text.
  let start = markdown ? Infinity : 0;
  for (let i = 0; i <= lines.length && !markdown; i++) {
    if (i < lines.length && !inFence[i]) continue;
    if (i > start) {
      const prose = lines.slice(start, i).join('\n').replace(MDX_COMMENT, (comment) => comment.replace(/[^\n]/g, ''));
      lines.splice(start, i - start, ...prose.split('\n'));
    }
    start = i + 1;
  }
  const seen = new Set<string>();
  const kind = markdown ? 'a page' : 'an .mdx page';
  lines.forEach((line, i) => {
    if (inFence[i]) return;
    if (markdown && ESM_LINE.test(line)) {
      warnings.push({ file, line: i + 1, column: 1, message: `MDX \`${line.split(/\s/)[0]}\` is not read: a page is built as plain markdown, so the line shows as text`, fix: 'remove the line and the components it brings (use :::note… admonitions and :::tabs instead)' });
    }
    // Inline code is code: `Hono<AppEnv>` is a type, not a component (spans blanked, columns kept).
    const prose = line.includes('`') ? line.replace(/(`+)[^`][\s\S]*?\1/g, (code) => ' '.repeat(code.length)) : line;
    for (const match of prose.matchAll(COMPONENT)) {
      const name = match[1]!;
      if (seen.has(name)) continue;
      seen.add(name);
      warnings.push({
        file,
        line: i + 1,
        column: match.index + 1,
        message: `the JSX component <${name}> is not rendered: ${kind} is built as plain markdown, so only its text shows`,
        fix: name === 'Tabs' || name === 'TabItem' ? 'write the tabs as :::tabs with one fenced code block per tab' : name === 'Admonition' ? 'write it as :::note (or :::tip, :::warning…)' : 'write it in markdown, or remove it',
      });
    }
  });
  return lines.join('\n');
}

/**
 * An `.mdx` page is read as markdown: MDX's `import` and `export` lines (outside code fences) would
 * show as text, and the components they bring do not exist here. Each is an error at its line.
 */
export function mdxProblems(body: string, file: string): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const lines = body.split('\n');
  const inFence = fenceLines(lines);
  lines.forEach((line, i) => {
    if (!inFence[i] && /^(import|export)\s/.test(line)) {
      problems.push({
        file,
        line: i + 1,
        message: `MDX \`${line.split(/\s/)[0]}\` is not read: an .mdx page is built as plain markdown, without JSX components`,
        fix: 'remove the line and the components it brings (use :::note… admonitions and :::tabs instead), or rename the page to .md once it is plain markdown',
      });
    }
  });
  return problems;
}
