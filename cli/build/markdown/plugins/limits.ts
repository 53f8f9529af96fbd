/**
 * Guards that keep one hostile or broken page from crashing or stalling a build. Some markdown costs a
 * parser far more than its size: micromark resolves emphasis and brackets over a whole paragraph
 * (`**a*` repeated over 200 KB took three minutes), deep lists cost quadratic time, and every tree
 * stage after the parser recurses once per level (5,000 nested quotes overflowed the stack). Each limit
 * is far above what a real page holds and far below what hurts; a page over one fails with its line.
 */
import type { Diagnostic } from '../../../util/errors';

/** Deepest nesting of lists and block quotes a page may have. */
export const MAX_DEPTH = 100;
/** Most emphasis, bracket, backtick and angle characters one paragraph (lines without a blank one between) may hold. */
export const MAX_INLINE_MARKUP = 10_000;
/**
 * The parser's cost of a paragraph grows about as the square of its markers (6,666 take some 2 s), so
 * many paragraphs each under the limit still stalled a build (40 of 6,666: 70–90 s). A page's
 * paragraphs may hold at most this sum of squares, about 10 s of parsing: two paragraphs at the limit,
 * 200 of 1,000 markers, 20,000 of 100.
 */
export const MAX_PAGE_MARKUP_COST = 2 * MAX_INLINE_MARKUP ** 2;
/**
 * Most table cells a page may hold. Each cell is a few objects at every stage of the pipeline: a
 * table of 200,000 cells took 37 s and 2.1 GB to build, one of a million ran Node out of memory. A
 * page's tables hold a few thousand at most.
 */
export const MAX_TABLE_CELLS = 50_000;

const FENCE = /^\s{0,3}(?:>\s?)*\s*(`{3,}|~{3,})/;

/**
 * What each line of a page is to the code fences, line by line: `code` inside a fence or closing one,
 * `fence` opening one, `text` anywhere else. One tracker a pass over the page.
 */
function fenceTracker(): (line: string) => 'code' | 'fence' | 'text' {
  let fence: string | undefined;
  return (line) => {
    const opener = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      if (opener && opener[0] === fence[0] && opener.length >= fence.length) fence = undefined;
      return 'code';
    }
    if (!opener) return 'text';
    fence = opener;
    return 'fence';
  };
}
/** A GFM table's delimiter row (`|---|:--:|`), the second line of a table. */
const TABLE_DELIMITER = /^\s{0,3}(?:>\s?)*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;
const CONTAINER = /^\s*(?:>|[-*+](?=\s)|\d{1,9}[.)](?=\s))/;

/**
 * A whole link reference definition on one line, as CommonMark reads it: `[label]: destination`, with
 * an optional title in quotes or parentheses and nothing after. Strict, so a line the parser would take
 * as a paragraph's text after all (its markers then cost) is counted as text.
 */
const DEFINITION = /^ {0,3}\[(?:[^\]\\\n]|\\.){1,999}\]:[ \t]*(?:<[^<>\n]*>|[^\s<][^\s]*)(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*$/;

/** How deep a line's containers may nest at most: its quote and list markers, and its indentation. */
function depthOf(line: string): number {
  let depth = 0;
  let rest = line;
  for (;;) {
    const indent = /^[ \t]*/.exec(rest)![0];
    depth += Math.floor(indent.replace(/\t/g, '    ').length / 2);
    const marker = CONTAINER.exec(rest);
    if (!marker) return depth;
    depth += 1;
    rest = rest.slice(marker[0].length);
    if (depth > MAX_DEPTH * 4) return depth;
  }
}

/**
 * Problems a page's source has before it is parsed: nesting that is surely too deep, and a paragraph
 * with more inline markup than the parser resolves in reasonable time. Code fences are skipped. The
 * cells of a table are parsed each on its own (a 4,000-row table of 40,000 markers, however hostile,
 * parses in 1.5 s), so in a table each row counts as a block: a long table is no error.
 */
export function checkSourceLimits(source: string, file: string): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const lines = source.split('\n');
  let blockStart = -1;
  let markup = 0;
  let cost = 0;
  let reported = false;
  let table = false;
  let cells = 0;
  let tableStart = -1;
  /** The lines so far of this block are link reference definitions. */
  let definitions = false;
  const endBlock = (): void => {
    if (blockStart !== -1 && markup > MAX_INLINE_MARKUP && !reported) {
      const kind = table ? 'table row' : 'paragraph';
      problems.push({ file, line: blockStart + 1, column: 1, message: `this ${kind} holds ${markup.toLocaleString('en-GB')} emphasis, link and code markers (*, _, [, ], \`, <), more than the ${MAX_INLINE_MARKUP.toLocaleString('en-GB')} a ${kind} may hold`, fix: table ? 'split the row, or put data in a code block or a linked file' : 'split it with blank lines, or put data in a code block or a linked file' });
      reported = true;
    }
    cost += markup * markup;
    if (blockStart !== -1 && cost > MAX_PAGE_MARKUP_COST && !reported) {
      problems.push({ file, line: blockStart + 1, column: 1, message: 'the page holds more emphasis, link and code markers (*, _, [, ], `, <) than a build parses in reasonable time; its paragraphs up to this one are each thick with them', fix: 'split the page, or put data in a code block or a linked file' });
      reported = true;
    }
    blockStart = -1;
    markup = 0;
  };
  const fences = fenceTracker();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const kind = fences(line);
    if (kind === 'code') continue;
    if (kind === 'fence') {
      endBlock();
      table = false;
      continue;
    }
    if (line.trim() === '') {
      endBlock();
      table = false;
      continue;
    }
    // The second line of a block that makes it a table: the header row was a row of its own.
    if (!table && blockStart !== -1 && blockStart === i - 1 && lines[blockStart]!.includes('|') && TABLE_DELIMITER.test(line)) {
      table = true;
      tableStart = blockStart;
      endBlock();
    }
    // A link reference definition is read on its own, not as a paragraph's inline markup: a block of
    // thousands of them (a glossary's links) is no thick paragraph.
    if (!table && DEFINITION.test(line) && (blockStart === -1 || definitions)) {
      endBlock();
      definitions = true;
      continue;
    }
    definitions = false;
    if (blockStart === -1) blockStart = i;
    for (let j = 0; j < line.length; j++) {
      const c = line.charCodeAt(j);
      // * _ [ ] ` <
      if (c === 42 || c === 95 || c === 91 || c === 93 || c === 96 || c === 60) markup++;
    }
    if (problems.length === 0 && depthOf(line) > MAX_DEPTH) {
      problems.push({ file, line: i + 1, column: 1, message: `lists or block quotes are nested more than ${MAX_DEPTH} levels deep here`, fix: 'flatten the nesting: no reader follows a hundred levels' });
    }
    if (table) {
      // A row's cells: the pipes between and around them (escaped or in code, they still cost a node).
      cells += Math.max(1, line.split('|').length - 1);
      if (cells > MAX_TABLE_CELLS && !reported) {
        problems.push({ file, line: tableStart + 1, column: 1, message: `the page's tables hold more than ${MAX_TABLE_CELLS.toLocaleString('en-GB')} cells by this one, more than a build renders in reasonable time and memory`, fix: 'split the table over several pages, or publish the data as a linked file (CSV) and show a summary' });
        reported = true;
      }
      endBlock();
    }
  }
  endBlock();
  return problems;
}

/** A tree node, as far as the depth check needs it. */
interface Node {
  type: string;
  children?: Node[];
  position?: { start: { line: number; column: number } };
}

/** Nodes that nest blocks: each level adds stack frames to every later tree stage. */
const NESTING = new Set(['blockquote', 'listItem', 'containerDirective', 'footnoteDefinition']);

/** The first place where `tree` nests containers deeper than `MAX_DEPTH`, checked without recursion. */
export function checkTreeDepth(tree: Node, file: string): Diagnostic[] {
  const stack: [Node, number][] = [[tree, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    const own = NESTING.has(node.type) ? depth + 1 : depth;
    if (own > MAX_DEPTH) {
      return [{ file, line: node.position?.start.line, column: node.position?.start.column, message: `lists or block quotes are nested more than ${MAX_DEPTH} levels deep here`, fix: 'flatten the nesting: no reader follows a hundred levels' }];
    }
    for (const child of node.children ?? []) stack.push([child, own]);
  }
  return [];
}

/** Elements that hold nothing, so never nest: their tags open no level. */
const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

/** The deepest raw HTML a page may nest: past it a renderer's recursion may run out of stack (TooDeepHtml, deepHtmlLine). */
export const DEEP_HTML = 1000;

/**
 * Thrown by `sanitizeRawHtml` (raw-html.ts) when the page's raw HTML, once parsed, nests elements more
 * than DEEP_HTML deep. Checked on the parsed tree (implied end tags closed, as a browser closes them),
 * before any recursive stage: whether such a page renders does not hang on the stack of the thread
 * that renders it (a render thread has four times the main thread's).
 */
export class TooDeepHtml extends Error {
  constructor(readonly line: number | undefined) {
    super('raw HTML nested too deeply');
  }
}

/** The first element of `tree`, in document order, nested more than DEEP_HTML elements deep; found without recursion. */
export function firstTooDeep(tree: Node): Node | undefined {
  const stack: [Node, number][] = [[tree, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    const own = node.type === 'element' ? depth + 1 : depth;
    if (own > DEEP_HTML) return node;
    const children = node.children ?? [];
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i]!, own]);
  }
  return undefined;
}

/** The problem of a page nested too deeply to render, at `line` when it is known. */
export function tooDeepProblem(file: string, line: number | undefined): Diagnostic {
  return line
    ? { file, line, message: `is nested too deeply to render: its HTML is more than ${DEEP_HTML.toLocaleString('en-GB')} elements deep by this line`, fix: 'flatten deeply nested lists, quotes or HTML' }
    : { file, message: 'is nested too deeply to render (the renderer ran out of stack)', fix: 'flatten deeply nested lists, quotes or HTML' };
}

/**
 * The line (1-based) where the page's raw HTML first nests more than DEEP_HTML elements deep, counting
 * opening and closing tags outside code fences; undefined when it never does. For a page whose render
 * ran out of stack (4,999 nested `<sup>`, 20,000 `<div>`s never closed): the problem gets a line.
 */
export function deepHtmlLine(source: string): number | undefined {
  const lines = source.split('\n');
  const fences = fenceTracker();
  let depth = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (fences(line) !== 'text') continue;
    for (const [, closing, name, selfClosing] of line.matchAll(/<(\/?)([a-zA-Z][\w-]*)(?:\s[^<>]*?)?(\/?)>/g)) {
      if (VOID_ELEMENTS.has(name!.toLowerCase()) || selfClosing) continue;
      depth += closing ? -1 : 1;
      if (depth > DEEP_HTML) return i + 1;
    }
    if (depth < 0) depth = 0;
  }
  return undefined;
}
