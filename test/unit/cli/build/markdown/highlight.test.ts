import { toHtml } from 'hast-util-to-html';
import type { Element } from 'hast';
import { createHighlighter, type HighlighterGeneric } from 'shiki';
import { beforeAll, describe, expect, it } from 'vitest';
import { highlight } from '../../../../../cli/build/markdown/plugins/code';
import { contrastRatio, readableOn } from '../../../../../cli/build/markdown/contrast';

let highlighter: HighlighterGeneric<string, string>;
beforeAll(async () => {
  highlighter = (await createHighlighter({ themes: ['github-dark'], langs: ['ruby', 'json', 'bash', 'typescript', 'python', 'yaml', 'markdown'] })) as HighlighterGeneric<string, string>;
});

/**
 * What shiki's own hast path gives: `codeToHast` with a line transformer, serialised by
 * hast-util-to-html, each token's colour made readable on the block as ours are (contrast.ts).
 */
function shikiReference(code: string, lang: string, lines: Set<number>): string {
  const root = highlighter.codeToHast(code, {
    lang,
    theme: 'github-dark',
    transformers: [{ line(line, number) { if (lines.has(number)) this.addClassToHast(line, 'highlighted'); } }],
  });
  return toHtml(root).replace(/(<span style="color:)(#[0-9A-Fa-f]{6})/g, (_, start: string, color: string) => start + readableOn(color, '#24292e'));
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

  it('tokenizes every line to its end however long it takes, and shows a line over 5,000 characters plain', () => {
    /** The text of each token of a line, in order. */
    const tokensOf = (code: string, lang: string): string[] => [...String((highlight(highlighter, code, lang, 'github-dark', new Set()).children[0] as Element).properties.dataHtml).matchAll(/<span(?: style="[^"]*")?>([^<]*)<\/span>/g)].map((match) => match[1]!);
    // Slow to tokenize (seconds on a loaded machine; shiki's default stops a line after 500 ms and shows
    // the rest as one token, so the page depended on the machine's load): cut nowhere.
    const slow = 'a <b>"c\' `d ${e} /f/g #h [i] {j} '.repeat(200).slice(0, 4999);
    const tokens = tokensOf(slow, 'typescript');
    expect(tokens.length).toBeGreaterThan(500);
    expect(Math.max(...tokens.map((token) => token.length))).toBeLessThan(100);
    // A minified line past the limit: one plain token, the next line highlighted as usual.
    const blob = `const data = ${JSON.stringify('x'.repeat(5100))};`;
    const [first, ...rest] = tokensOf(`${blob}\nconst next = 1;`, 'typescript');
    expect(first!.length).toBe(blob.length);
    expect(rest.length).toBeGreaterThan(3);
  });

  it('keeps every token at 4.5:1 against the block, comments included (github-dark writes them at 3.05:1)', () => {
    expect(contrastRatio('#6A737D', '#24292e')!).toBeLessThan(3.1);
    let comments = 0;
    for (const [lang, code] of samples) {
      const html = ours(code, lang, new Set());
      for (const [, color] of html.matchAll(/<span style="color:(#[0-9A-Fa-f]{6})/g)) expect(contrastRatio(color!, '#24292e'), `${lang} ${color}`).toBeGreaterThanOrEqual(4.5);
      if (/# comment|\/\/ `</.test(code)) comments++;
    }
    expect(comments).toBe(2);
    // Moved no further than needed: the comment grey stays a grey, lighter.
    const comment = readableOn('#6A737D', '#24292e');
    expect(contrastRatio(comment, '#24292e')!).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(comment, '#24292e')!).toBeLessThan(5.5);
    // A light block: towards black.
    expect(contrastRatio(readableOn('#AAAAAA', '#FFFFFF'), '#FFFFFF')!).toBeGreaterThanOrEqual(4.5);
    expect(readableOn('#E1E4E8', '#24292e')).toBe('#E1E4E8');
  });

  it('escapes markup in code and marks highlighted lines', () => {
    const html = ours('a <b> & c\nd', 'text', new Set([2]));
    expect(html).toContain('a &#x3C;b> &#x26; c');
    expect(html).toContain('<span class="line highlighted"><span>d</span></span>');
  });
});
