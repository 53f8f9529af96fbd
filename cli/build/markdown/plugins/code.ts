/**
 * Code fences → highlighted hast, for mdast-util-to-hast's `code` handler.
 * Meta: `title="file.ts"` shows a title bar, `{1,3-4}` highlights lines. ```mermaid fences become a
 * diagram placeholder the runtime renders. Unknown languages fall back to plain text with a warning.
 */
import type { Element, ElementContent } from 'hast';
import type { Code, Root } from 'mdast';
import type { HighlighterGeneric, ThemedToken } from 'shiki';
import { bundledLanguages, getTokenStyleObject, stringifyTokenStyle } from 'shiki';
import { walk } from '../walk';
import type { Diagnostic } from '../../../util/errors';
import type { DiagramBox } from '../diagrams';
import { readableOn } from '../contrast';

/**
 * How shiki tokenizes a fence: every line to its end, however long that takes (shiki stops a line
 * after 500 ms by default and shows its rest as one plain token, so a loaded machine, or the first line
 * of a language a thread meets, which compiles the grammar, gave another page than a quiet one: no
 * build was reproducible), and a line longer than 5,000 characters (minified code, a data blob) not
 * at all: it shows plain, the same on every machine. A pathological line at the limit costs
 * about what the time limit allowed (0.2–1 s for the slowest grammars).
 */
const TOKENIZE = { tokenizeTimeLimit: 0, tokenizeMaxLineLength: 5000 } as const;

/** Languages shiki renders as plain text without a grammar. */
const PLAIN = new Set(['text', 'txt', 'plain', 'plaintext', '']);

/** What a fence's info string says. */
export interface FenceMeta {
  lang: string;
  title?: string;
  highlight: Set<number>;
  /** `showLineNumbers` (Docusaurus; `showLineNumbers=5` starts at 5): the number of the first line. */
  lineNumbers?: number;
  /** What `showLineNumbers=` says when it is no first line's number (0 to MAX_FIRST_LINE): the lines are numbered from 1, with a warning. */
  badLineNumbers?: string;
  /** The parts of the `{…}` line ranges that mark no line (`3-1`, `0`, `x`, a line past the code's end), with a warning; the others mark theirs. */
  badRanges?: string[];
}

/** The highest number `showLineNumbers=` may start at: past it, CSS counters lose precision (they are 32-bit in browsers) and no file is that long. */
const MAX_FIRST_LINE = 1_000_000_000;

/** Lines one range may mark when the code's length is not known (a tab's label needs none). */
const MAX_MARKED_LINES = 100_000;

/**
 * Parses `ts title="a.ts" {1,3-4}`. Highlighted lines past `lines` (the code's line count, when
 * given) are dropped: `{1-20000000}` on a short fence marks its lines, and costs no more than they do.
 */
export function parseFenceMeta(lang: string | null | undefined, meta: string | null | undefined, lines = Number.POSITIVE_INFINITY): FenceMeta {
  const info = meta ?? '';
  const title = /title=(?:"([^"]*)"|'([^']*)'|(\S+))/.exec(info);
  const highlight = new Set<number>();
  const badRanges: string[] = [];
  // The meta without its title: a title may say anything (`title="{9} showLineNumbers.ts"`).
  const rest = title ? info.replace(title[0], '') : info;
  // The line ranges: `{1,3-4}` marks lines 1, 3 and 4. The first {…} of numbers, commas and dashes;
  // else one standing alone that holds a number and no more than words, commas and dashes (`{1-x}`,
  // `{1..3}`), to warn about. Other braces are some other tool's (`{cmd=true}`, `ins={"A":1}`).
  const ranges = /(?:^|\s)\{([\d\s,-]*)\}/.exec(rest) ?? /(?:^|\s)\{((?=[^}]*\d)[\w\s,.-]+)\}(?=\s|$)/.exec(rest);
  for (const part of ranges ? ranges[1]!.split(',').map((text) => text.trim()) : []) {
    const range = /^(\d{1,10})(?:\s*-\s*(\d{1,10}))?$/.exec(part);
    // `{0-3}` marks lines 1 to 3, as it always did.
    const from = Math.max(1, Number(range?.[1]));
    const to = range?.[2] === undefined ? Number(range?.[1]) : Number(range[2]);
    if (!range || to < from || from > lines) {
      if (part !== '' || ranges![1]!.trim() === '') badRanges.push(part);
      continue;
    }
    for (let line = from, last = Math.min(to, lines, from + MAX_MARKED_LINES); line <= last; line++) highlight.add(line);
  }
  const numbered = /(?:^|\s)showLineNumbers(?:=(\S*))?(?=\s|$)/.exec(rest);
  const start = numbered?.[1] === undefined ? 1 : /^\d{1,10}$/.test(numbered[1]) ? Number(numbered[1]) : Number.NaN;
  const lineNumbers = !numbered ? {} : start <= MAX_FIRST_LINE ? { lineNumbers: start } : { lineNumbers: 1, badLineNumbers: numbered[1]! };
  return { lang: (lang ?? '').toLowerCase(), title: title ? (title[1] ?? title[2] ?? title[3]) : undefined, highlight, ...lineNumbers, ...(badRanges.length > 0 ? { badRanges } : {}) };
}

/** True when shiki knows `lang` (or it is plain text). */
export function isKnownLanguage(lang: string): boolean {
  return PLAIN.has(lang) || lang === 'mermaid' || lang in bundledLanguages;
}

/** The fence languages of a tree that need a grammar, each with its blocks' code. */
export function collectLanguages(tree: Root): Map<string, string[]> {
  const langs = new Map<string, string[]>();
  walk(tree, (walked) => {
    if (walked.type !== 'code') return;
    const lang = ((walked as Code).lang ?? '').toLowerCase();
    if (PLAIN.has(lang) || lang === 'mermaid' || !(lang in bundledLanguages)) return;
    const blocks = langs.get(lang);
    if (blocks) blocks.push((walked as Code).value);
    else langs.set(lang, [(walked as Code).value]);
  });
  return langs;
}

export interface CodeHandlerOptions {
  highlighter: HighlighterGeneric<string, string>;
  theme: string;
  file: string;
  warnings: Diagnostic[];
  /** Set to true when the page holds a mermaid diagram. */
  onMermaid: () => void;
  /** The box reserved for a mermaid fence (cli/build/markdown/diagrams.ts), when it parses. */
  diagramBox?: (node: Code) => DiagramBox | undefined;
}

/**
 * A diagram is scaled down into the text column at most this far; a wider one keeps this scale and
 * scrolls sideways in its frame, as a wide table or code block does. At 0.75 its 16 px labels are 12 px:
 * scaled into the column, a 2,000 px flowchart had labels of 5 px on a laptop and 2.5 px on a phone.
 */
const LEGIBLE_SCALE = 0.75;

/** Builds the hast of one fence. */
export function renderFence(node: Code, options: CodeHandlerOptions): Element {
  const meta = parseFenceMeta(node.lang, node.meta, node.value.split('\n').length);
  if (meta.lang === 'mermaid') {
    options.onMermaid();
    // The frame holds the source until the runtime draws the diagram into it; its box is the size the
    // diagram will be drawn at, so nothing below it moves when it is.
    const box = options.diagramBox?.(node);
    const frame: Element = {
      type: 'element',
      tagName: 'div',
      properties: { className: ['mermaid-frame'], dataMermaid: '', ...(box ? { style: `aspect-ratio:${box.width}/${box.height};max-width:${box.width}px;min-width:${Math.round(box.width * LEGIBLE_SCALE)}px` } : {}) },
      children: [{ type: 'text', value: node.value }],
    };
    // Focusable, as a code block is: a diagram wider than the column scrolls sideways, from the keyboard too.
    return { type: 'element', tagName: 'div', properties: { className: ['mermaid'], tabIndex: 0 }, children: [frame] };
  }
  let lang = meta.lang;
  if (!isKnownLanguage(lang)) {
    options.warnings.push({
      file: options.file,
      line: node.position?.start.line,
      column: node.position?.start.column,
      message: `unknown code fence language "${node.lang}", shown as plain text`,
      fix: 'use a language shiki knows (https://shiki.style/languages), or `text`',
    });
    lang = 'text';
  }
  if (meta.badLineNumbers !== undefined) {
    const written = meta.badLineNumbers.length > 40 ? `${meta.badLineNumbers.slice(0, 40)}…` : meta.badLineNumbers;
    options.warnings.push({
      file: options.file,
      line: node.position?.start.line,
      column: node.position?.start.column,
      message: `\`showLineNumbers=${written}\` is no line number: the first line's number is a whole number from 0 to ${MAX_FIRST_LINE.toLocaleString('en-GB')}; the lines are numbered from 1`,
      fix: 'write the number of the first line, e.g. showLineNumbers=40, or showLineNumbers alone to start at 1',
    });
  }
  if (meta.badRanges) {
    const lines = node.value.split('\n').length;
    const shown = meta.badRanges.map((part) => (part === '' ? '{}' : part.length > 20 ? `${part.slice(0, 20)}…` : part));
    options.warnings.push({
      file: options.file,
      line: node.position?.start.line,
      column: node.position?.start.column,
      message: `the highlighted lines ${shown.map((part) => `\`${part}\``).join(', ')} mark no line of this ${lines}-line block: a line range is a first and last line from 1 to ${lines}, the first not past the last`,
      fix: 'write the lines to highlight, e.g. {1,3-4} for lines 1, 3 and 4',
    });
  }
  // Docusaurus' magic comments mark lines unless the fence's {ranges} do (then they are code as written).
  const { code, marked } = meta.highlight.size > 0 ? { code: node.value, marked: meta.highlight } : takeMagicComments(node.value);
  const pre = highlight(options.highlighter, code, PLAIN.has(lang) ? 'text' : lang, options.theme, marked);
  const children: ElementContent[] = [];
  if (meta.title) children.push({ type: 'element', tagName: 'div', properties: { className: ['code-block-title'] }, children: [{ type: 'text', value: meta.title }] });
  children.push(pre);
  // Numbered lines: a counter in CSS (markdown.css), so the numbers are never part of the copied text.
  const numbered = meta.lineNumbers === undefined ? {} : { className: ['code-block', 'code-block-numbered'], ...(meta.lineNumbers === 1 ? {} : { style: `counter-reset:line ${meta.lineNumbers - 1}` }) };
  return {
    type: 'element',
    tagName: 'div',
    properties: { className: ['code-block'], dataLanguage: PLAIN.has(lang) ? 'text' : lang, ...numbered },
    children,
  };
}

/**
 * A magic comment of Docusaurus alone on its line, in the comment syntaxes of the usual languages:
 * `// highlight-next-line`, `# highlight-start`, `<!-- highlight-end -->`, `{/* highlight-next-line *\/}`…
 */
const MAGIC_COMMENT = /^\s*(?:\/\/|#|--|%|;;|\/\*|\{\/\*|<!--)\s*highlight-(next-line|start|end)\s*(?:\*\/\}?|-->)?\s*$/;

/** The code without its magic comment lines, and the (1-based) lines they mark. */
export function takeMagicComments(code: string): { code: string; marked: Set<number> } {
  if (!code.includes('highlight-')) return { code, marked: new Set() };
  const kept: string[] = [];
  const marked = new Set<number>();
  let next = false;
  let open = false;
  for (const line of code.split('\n')) {
    const magic = MAGIC_COMMENT.exec(line)?.[1];
    if (magic === 'next-line') next = true;
    else if (magic === 'start') open = true;
    else if (magic === 'end') open = false;
    else {
      kept.push(line);
      if (next || open) marked.add(kept.length);
      next = false;
    }
  }
  return { code: kept.join('\n'), marked };
}

/** Token text as hast-util-to-html writes it: `<` and `&` as hexadecimal references. */
function escapeText(value: string): string {
  return value.replace(/[<&]/g, (character) => (character === '<' ? '&#x3C;' : '&#x26;'));
}

/** Whitespace-only tokens join the next token (shiki's `mergeWhitespaces`), unless underlined or struck through. */
function mergeWhitespace(line: ThemedToken[]): ThemedToken[] {
  const merged: ThemedToken[] = [];
  let carried = '';
  line.forEach((token, i) => {
    const decorated = token.fontStyle !== undefined && (token.fontStyle & (4 | 8)) !== 0; // Underline | Strikethrough
    if (!decorated && /^\s+$/.test(token.content) && line[i + 1]) carried += token.content;
    else if (carried) {
      if (decorated) merged.push({ content: carried, offset: token.offset }, token);
      else merged.push({ ...token, content: carried + token.content });
      carried = '';
    } else merged.push(token);
  });
  return merged;
}

/**
 * A highlighted `pre` whose `code` holds its token spans as one HTML string (`data-html`): the same
 * markup as shiki's `codeToHast` followed by hast-util-to-html, written straight from the tokens.
 * Thousands of token spans would otherwise each become a hast node, then a React element; they carry
 * no behaviour, and building them was a third of the highlighting time.
 */
export function highlight(highlighter: HighlighterGeneric<string, string>, code: string, lang: string, theme: string, highlighted: ReadonlySet<number>): Element {
  const { tokens, fg, bg, themeName } = highlighter.codeToTokens(code, { lang, theme, ...TOKENIZE });
  let html = '';
  tokens.forEach((line, i) => {
    html += `${i > 0 ? '\n' : ''}<span class="${highlighted.has(i + 1) ? 'line highlighted' : 'line'}">`;
    for (const token of mergeWhitespace(line)) {
      // Every token at least 4.5:1 against the block (contrast.ts): a theme's comments often are not.
      if (token.color && bg && !token.htmlStyle) token.color = readableOn(token.color, bg);
      const style = stringifyTokenStyle(token.htmlStyle ?? getTokenStyleObject(token));
      html += `${style ? `<span style="${style.replace(/&/g, '&#x26;').replace(/"/g, '&#x22;')}">` : '<span>'}${escapeText(token.content)}</span>`;
    }
    html += '</span>';
  });
  return {
    type: 'element',
    tagName: 'pre',
    properties: { class: `shiki ${themeName ?? ''}`, style: `background-color:${bg};color:${fg}`, tabindex: '0' },
    children: [{ type: 'element', tagName: 'code', properties: { dataHtml: html }, children: [] }],
  };
}
