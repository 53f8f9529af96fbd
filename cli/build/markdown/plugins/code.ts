/**
 * Code fences → highlighted hast, for mdast-util-to-hast's `code` handler.
 * Meta: `title="file.ts"` shows a title bar, `{1,3-4}` highlights lines. ```mermaid fences become a
 * diagram placeholder the runtime renders. Unknown languages fall back to plain text with a warning.
 */
import type { Element, ElementContent } from 'hast';
import { toHtml } from 'hast-util-to-html';
import type { Code, Root } from 'mdast';
import type { HighlighterGeneric, ShikiTransformer } from 'shiki';
import { bundledLanguages } from 'shiki';
import { walk } from '../walk';
import type { Diagnostic } from '../../../util/errors';

/** Languages shiki renders as plain text without a grammar. */
const PLAIN = new Set(['text', 'txt', 'plain', 'plaintext', '']);

/** What a fence's info string says. */
export interface FenceMeta {
  lang: string;
  title?: string;
  highlight: Set<number>;
}

/** Parses `ts title="a.ts" {1,3-4}`. */
export function parseFenceMeta(lang: string | null | undefined, meta: string | null | undefined): FenceMeta {
  const info = meta ?? '';
  const title = /title=(?:"([^"]*)"|'([^']*)'|(\S+))/.exec(info);
  const highlight = new Set<number>();
  const ranges = /\{([\d,\s-]+)\}/.exec(info);
  if (ranges) {
    for (const part of ranges[1]!.split(',')) {
      const [from, to] = part.trim().split('-').map(Number);
      if (from === undefined || Number.isNaN(from)) continue;
      for (let line = from; line <= (to ?? from); line++) highlight.add(line);
    }
  }
  return { lang: (lang ?? '').toLowerCase(), title: title ? (title[1] ?? title[2] ?? title[3]) : undefined, highlight };
}

/** True when shiki knows `lang` (or it is plain text). */
export function isKnownLanguage(lang: string): boolean {
  return PLAIN.has(lang) || lang === 'mermaid' || lang in bundledLanguages;
}

/** The fence languages of a tree that need a grammar. */
export function collectLanguages(tree: Root): Set<string> {
  const langs = new Set<string>();
  walk(tree, (walked) => {
    if (walked.type !== 'code') return;
    const lang = ((walked as Code).lang ?? '').toLowerCase();
    if (!PLAIN.has(lang) && lang !== 'mermaid' && lang in bundledLanguages) langs.add(lang);
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
}

/** Builds the hast of one fence. */
export function renderFence(node: Code, options: CodeHandlerOptions): Element {
  const meta = parseFenceMeta(node.lang, node.meta);
  if (meta.lang === 'mermaid') {
    options.onMermaid();
    return { type: 'element', tagName: 'div', properties: { className: ['mermaid'], dataMermaid: '' }, children: [{ type: 'text', value: node.value }] };
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
  const highlightLines: ShikiTransformer = {
    line(line, number) {
      if (meta.highlight.has(number)) this.addClassToHast(line, 'highlighted');
    },
  };
  const root = options.highlighter.codeToHast(node.value, {
    lang: PLAIN.has(lang) ? 'text' : lang,
    theme: options.theme,
    transformers: [highlightLines],
  });
  const pre = root.children.find((child): child is Element => child.type === 'element');
  // Thousands of token spans would each become a React element; they carry no behaviour, so the
  // `code` element keeps them as one HTML string that the Code component injects.
  const code = pre?.children.find((child): child is Element => child.type === 'element' && child.tagName === 'code');
  if (code) {
    code.properties.dataHtml = toHtml(code.children);
    code.children = [];
  }
  const children: ElementContent[] = [];
  if (meta.title) children.push({ type: 'element', tagName: 'div', properties: { className: ['code-block-title'] }, children: [{ type: 'text', value: meta.title }] });
  if (pre) children.push(pre);
  return {
    type: 'element',
    tagName: 'div',
    properties: { className: ['code-block'], dataLanguage: PLAIN.has(lang) ? 'text' : lang },
    children,
  };
}
