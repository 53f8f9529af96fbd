/**
 * Grammars loaded without the languages they embed (cli/build/markdown/languages.ts): every page is
 * rendered exactly as with each language's whole module loaded — heredocs in SQL, HTML (whose script
 * is JavaScript) and YAML inside Ruby, the blocks around them, later pages, an HTML block before and
 * after — and a page none of whose blocks may enter another language loads none.
 */
import { bundledLanguages, createHighlighter, type HighlighterGeneric, type LanguageRegistration } from 'shiki';
import { describe, expect, it } from 'vitest';
import { createMarkdownRenderer, type MarkdownOptions } from '../../../../../cli/build/markdown';
import { startHighlighter } from '../../../../../cli/build/markdown/highlighter';
import { embeddingTriggers } from '../../../../../cli/build/markdown/languages';

type Highlighter = HighlighterGeneric<string, string>;

const PLAIN_RUBY = 'class Lap < ApplicationRecord\n  belongs_to :team\n  def duration = finished_at - started_at\n  # not a heredoc: 1 << 2\nend\n';
const SQL_HEREDOC = 'def fastest\n  connection.select_all(<<~SQL)\n    SELECT team_id, MIN(duration) FROM laps GROUP BY team_id\n  SQL\nend\n';
const HTML_HEREDOC = 'BANNER = <<~HTML\n  <div class="banner"><script>const lap = 1 < 2;</script><style>p { color: red }</style></div>\nHTML\n';
const YAML_HEREDOC = 'CONFIG = <<-YAML\n  station: 3\n  beacons: [12, 14]\nYAML\n';
const HTML = '<p onclick="go()">Lap</p>\n<script>let x = 1 < 2;</script>\n<style>p { color: red }</style>\n';

const fence = (lang: string, code: string): string => `\`\`\`${lang}\n${code}\`\`\`\n`;

/** Renders `pages` in order with a renderer on `highlighter` (started by the build, or a whole one), one HTML string per page. */
async function renderAll(pages: string[], highlighter?: Promise<unknown>): Promise<string[]> {
  const options = { codeTheme: 'github-dark', highlightLanguages: ['ruby'], displayPrefix: 'content/', routeOfFile: {}, toc: { minLevel: 2, maxLevel: 3 } } as unknown as MarkdownOptions;
  const renderer = await createMarkdownRenderer(options, highlighter);
  const html: string[] = [];
  for (const body of pages) {
    const rendered = await renderer.render({ rel: 'guide/race.md', body, resolveImage: () => undefined, resolveFile: () => undefined });
    expect(rendered.errors).toEqual([]);
    html.push(`${rendered.html}\n${JSON.stringify(rendered.warnings)}`);
  }
  return html;
}

describe('grammars loaded without their embedded languages', () => {
  it('render every page as the whole modules do, heredocs in other languages and the blocks around them included', async () => {
    const pages = [
      fence('ruby', PLAIN_RUBY),
      `Before:\n\n${fence('rb', PLAIN_RUBY)}\nThe query:\n\n${fence('ruby', SQL_HEREDOC)}\nAfter:\n\n${fence('ruby {2}', PLAIN_RUBY)}`,
      fence('html', HTML),
      fence('ruby', HTML_HEREDOC),
      fence('ruby', YAML_HEREDOC) + fence('html', HTML),
    ];
    const whole = createHighlighter({ themes: ['github-dark'], langs: ['ruby', 'html'] });
    const built = startHighlighter({ codeTheme: 'github-dark', highlightLanguages: ['ruby'] });
    try {
      expect(await renderAll(pages, built)).toEqual(await renderAll(pages, whole));
    } finally {
      (await whole).dispose();
      (await built).dispose();
    }
  });

  it('load none of them for blocks that cannot enter one, and those a heredoc needs once it comes', async () => {
    const highlighter = (await startHighlighter({ codeTheme: 'github-dark', highlightLanguages: ['ruby'] })) as unknown as Highlighter;
    try {
      await renderAll([fence('ruby', PLAIN_RUBY)], Promise.resolve(highlighter));
      expect(highlighter.getLoadedLanguages()).not.toContain('cpp');
      expect(highlighter.getLoadedLanguages()).not.toContain('sql');
      await renderAll([fence('ruby', SQL_HEREDOC)], Promise.resolve(highlighter));
      expect(highlighter.getLoadedLanguages()).toEqual(expect.arrayContaining(['sql', 'cpp', 'html', 'yaml']));
    } finally {
      highlighter.dispose();
    }
  });

  it("finds the rules that enter another language: Ruby's heredocs; none for a language that embeds none, none for one that reaches another unconditionally", async () => {
    const main = async (name: string): Promise<LanguageRegistration> => (await (bundledLanguages as Record<string, () => Promise<{ default: LanguageRegistration[] }>>)[name]!()).default.at(-1)!;
    const ruby = embeddingTriggers(await main('ruby'));
    expect(ruby?.length).toBeGreaterThanOrEqual(12);
    expect(ruby?.filter((trigger) => trigger.includes('<<')).length).toBeGreaterThanOrEqual(12);
    expect(ruby?.some((trigger) => trigger.includes('SQL'))).toBe(true);
    expect(embeddingTriggers(await main('json'))).toEqual([]);
    // Markdown's fenced blocks are entered by a fence line: each is a trigger. A grammar that includes
    // another at its top level has none.
    expect(embeddingTriggers({ name: 'x', scopeName: 'source.x', patterns: [{ include: 'source.js' }], repository: {} } as LanguageRegistration)).toBeUndefined();
    expect(embeddingTriggers({ name: 'x', scopeName: 'source.x', patterns: [{ include: '#inner' }], repository: { inner: { patterns: [{ include: 'source.js' }] } } } as unknown as LanguageRegistration)).toBeUndefined();
    expect(embeddingTriggers({ name: 'x', scopeName: 'source.x', patterns: [{ begin: '\\G<<', end: '$', patterns: [{ include: 'source.js' }] }], repository: {} } as unknown as LanguageRegistration)).toBeUndefined();
    expect(embeddingTriggers({ name: 'x', scopeName: 'source.x', patterns: [{ match: '(js:)(.*)', captures: { 2: { patterns: [{ include: 'source.js' }] } } }, { include: 'source.x#self' }], repository: {} } as unknown as LanguageRegistration)).toEqual(['(js:)(.*)']);
  });
});
