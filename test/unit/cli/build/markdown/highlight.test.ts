import { toHtml } from 'hast-util-to-html';
import type { Element } from 'hast';
import { createHighlighter, type HighlighterGeneric } from 'shiki';
import { beforeAll, describe, expect, it } from 'vitest';
import { highlight } from '../../../../../cli/build/markdown/plugins/code';

let highlighter: HighlighterGeneric<string, string>;
beforeAll(async () => {
  highlighter = (await createHighlighter({ themes: ['github-dark'], langs: ['ruby', 'json', 'bash', 'typescript', 'python', 'yaml', 'markdown'] })) as HighlighterGeneric<string, string>;
});

/** What shiki's own hast path gives: `codeToHast` with a line transformer, serialised by hast-util-to-html. */
function shikiReference(code: string, lang: string, lines: Set<number>): string {
  const root = highlighter.codeToHast(code, {
    lang,
    theme: 'github-dark',
    transformers: [{ line(line, number) { if (lines.has(number)) this.addClassToHast(line, 'highlighted'); } }],
  });
  return toHtml(root);
}

/** The same `pre` from `highlight`, with the token HTML put back inside `code`. */
function ours(code: string, lang: string, lines: Set<number>): string {
  const pre = highlight(highlighter, code, lang, 'github-dark', lines);
  const inner = pre.children[0] as Element;
  const html = String(inner.properties.dataHtml);
  return toHtml({ ...pre, children: [{ ...inner, properties: {}, children: [] }] }).replace('<code></code>', `<code>${html}</code>`);
}

const samples: [string, string][] = [
  ['ruby', 'class Race < ApplicationRecord\n  has_many :laps, dependent: :destroy\n\n  def fastest = laps.min_by(&:duration)\nend\n'],
  ['json', '{\n  "runner": "Team <A> & co",\n    "laps": [1, 2,   3],\n  "ok": true\n}'],
  ['bash', 'if [ "$#" -lt 1 ]; then\n\techo "usage: $0 <host>" >&2 && exit 1\nfi\ncurl -fsS "https://api.quad.example/?a=1&b=2"'],
  ['typescript', 'const lap = <T,>(x: T): T => x; // `<` & `>` in code\n   \n  export   type   Id = string;'],
  ['python', '"""Doc with \'quotes\'."""\nprint(f"{1 < 2 and 3 > 2}")\n'],
  ['yaml', 'key: value # comment\nlist:\n  - "a & b"\n'],
  ['markdown', '~~struck~~ and __underlined__ and *italic* and **bold**'],
  ['text', 'plain <text> & more\n\n  indented'],
];

describe('highlight: token HTML written straight from shiki tokens', () => {
  it.each(samples)('gives the bytes of codeToHast + hast-util-to-html for %s', (lang, code) => {
    for (const lines of [new Set<number>(), new Set([1, 3])]) expect(ours(code, lang, lines)).toBe(shikiReference(code, lang, lines));
  });

  it('escapes markup in code and marks highlighted lines', () => {
    const html = ours('a <b> & c\nd', 'text', new Set([2]));
    expect(html).toContain('a &#x3C;b> &#x26; c');
    expect(html).toContain('<span class="line highlighted"><span>d</span></span>');
  });
});
