/**
 * Parsing: remark-parse with GitHub Flavoured Markdown and remark-directive, and two measured
 * shortcuts around GFM's autolink literals (`www.x`, `https://x`, `a@b.c`), which cost more than
 * every other GFM construct together on the benchmark corpus:
 *
 * - The literal *syntax* makes every letter and digit of running text a place where micromark tries
 *   a construct, so text is scanned character by character (about a quarter of parse time). A literal
 *   needs `@`, `://` or `www.` in the source. When each of those in a document sits inside a fenced or
 *   indented code block, which the literal syntax never enters and which it cannot change (code blocks
 *   are found before any inline syntax), the document is parsed without the literal syntax: the tree
 *   is the same, node for node, positions included.
 * - The literal *transform* runs four regular expressions over every text node; documents whose text
 *   holds none of `@`, `://` or `www.` skip it. Output is identical either way.
 */
import type { Code, Root } from 'mdast';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { gfmFootnote } from 'micromark-extension-gfm-footnote';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';
import { combineExtensions } from 'micromark-util-combine-extensions';
import remarkDirective from 'remark-directive';
import remarkParse from 'remark-parse';
import { unified, type Processor } from 'unified';
import { walk } from '../walk';

/** What an autolink literal cannot do without. */
const LITERAL = /@|:\/\/|www\./i;
const LITERALS = /@|:\/\/|www\./gi;

interface FromMarkdownExtension {
  transforms?: ((tree: Root) => Root | undefined | void)[];
}

/** True when some text outside links could hold an autolink literal. */
function mayHoldLiteral(tree: Root): boolean {
  let found = false;
  walk(tree, (node) => {
    if (found || node.type === 'link' || node.type === 'linkReference' || node.type === 'code' || node.type === 'inlineCode') return 'skip';
    if (node.type === 'text' && LITERAL.test((node as unknown as { value: string }).value)) found = true;
  });
  return found;
}

/** remark plugin: GFM as remark-gfm adds it, optionally without the autolink literal syntax. */
function remarkGfmSyntax(this: Processor, options: { literals: boolean }): void {
  const data = this.data();
  (data.micromarkExtensions ??= []).push(options.literals ? gfm() : combineExtensions([gfmFootnote(), gfmStrikethrough(), gfmTable(), gfmTaskListItem()]));
  const fromMarkdown = gfmFromMarkdown() as FromMarkdownExtension[];
  for (const extension of fromMarkdown) {
    extension.transforms = extension.transforms?.map((transform) =>
      transform.name === 'transformGfmAutolinkLiterals' ? (tree: Root) => (mayHoldLiteral(tree) ? transform(tree) : undefined) : transform,
    );
  }
  (data.fromMarkdownExtensions ??= []).push(fromMarkdown as never);
}

/**
 * A cheap guess from the lines alone: true when a literal's marker appears outside every fence at
 * the start of a line. Only picks which parse to try first; `onlyInCode` has the final word.
 */
function markerInProse(source: string): boolean {
  let fence: string | undefined;
  for (const line of source.split('\n')) {
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === undefined) {
      if (opening && !(opening[1]![0] === '`' && line.slice(opening[0].length).includes('`'))) fence = opening[1];
      else if (LITERAL.test(line)) return true;
    } else if (opening && opening[1]![0] === fence[0] && opening[1]!.length >= fence.length && line.slice(opening[0].length).trim() === '') fence = undefined;
  }
  return false;
}

/** True when every literal marker of `source` lies inside a code block of `tree`. */
function onlyInCode(source: string, tree: Root): boolean {
  const blocks: [number, number][] = [];
  walk(tree, (node) => {
    if (node.type !== 'code') return;
    const { start, end } = (node as Code).position ?? {};
    if (start?.offset !== undefined && end?.offset !== undefined) blocks.push([start.offset, end.offset]);
    return 'skip';
  });
  for (const match of source.matchAll(LITERALS)) {
    const at = match.index;
    if (!blocks.some(([from, to]) => from <= at && at + match[0].length <= to)) return false;
  }
  return true;
}

/** Parses markdown to mdast with GFM and directives; see the file comment for the two shortcuts. */
export function createParser(): (source: string) => Root {
  const full = unified().use(remarkParse).use(remarkGfmSyntax, { literals: true }).use(remarkDirective).freeze();
  const light = unified().use(remarkParse).use(remarkGfmSyntax, { literals: false }).use(remarkDirective).freeze();
  return (source) => {
    if (!LITERAL.test(source)) return light.parse(source);
    if (markerInProse(source)) return full.parse(source);
    const tree = light.parse(source);
    return onlyInCode(source, tree) ? tree : full.parse(source);
  };
}
