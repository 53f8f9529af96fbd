/**
 * Fuzzing the markdown stage: thousands of random and mutated documents go through the real pipeline
 * (frontmatter, parse, directives, links, highlighting, raw HTML, headings, React render). None may
 * crash or hang, and every problem reported must name its file. Seeded, so a failure reproduces.
 */
import { describe, expect, it } from 'vitest';
import { parseFrontmatter } from '../../../../../cli/build/frontmatter';
import { createMarkdownRenderer, type MarkdownRenderer } from '../../../../../cli/build/markdown/index';

/** At least 2,000 in CI; `DOCS_FUZZ_CASES` runs more (locally, to hunt). */
const CASES = Number(process.env.DOCS_FUZZ_CASES ?? 2000);
/** A document that takes longer than this counts as a hang. */
const HANG_MS = 5000;

/** mulberry32: a small, seeded PRNG. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEEDS = [
  '---\ntitle: Seed\nsidebar_position: 2\n---\n\n# Title\n\nIntro with **bold**, _em_, `code` and a [link](./other.md#part).\n',
  '## Table\n\n| a | b |\n| --- | :-: |\n| 1 | 2 |\n\n- [ ] task\n- [x] done\n\n1. one\n2. two\n',
  ':::tip[Careful]\nInside a *tip*.\n\n```ruby title="app.rb" {1}\nputs 1\n```\n:::\n',
  '```mermaid\nflowchart LR\n  A --> B\n```\n\n![img](./img/a.png "title")\n\nText[^1]\n\n[^1]: Foot.\n',
  '<details><summary>Raw</summary>\n\n*markdown* inside\n\n</details>\n\n<script>x()</script> <b onclick="y()">b</b>\n',
  ':::tabs\n```bash title="curl"\ncurl x\n```\n```python title="python"\nprint(1)\n```\n:::\n\n::api-endpoint{method="post" path="/x"}\n',
  '> quote\n> > nested\n\n***\n\nhttps://auto.link and www.example.com ~~strike~~\n\n### H3 {#id}\n',
];

const TOKENS = ['#', '## ', '```', '~~~', ':::', ':::note', '::', ':', '[', ']', '(', ')', '![', '*', '_', '`', '|', '---', '\n', '\n\n', '<', '>', '</', '&', '\\', '[^1]', '{', '}', '"', "'", '\t', '    ', '- ', '1. ', '<div>', '</div>', '\u0000', '\uFFFF', '😀', '\u200B', 'title="', '{1,3-', 'javascript:', '%', '$', 'lang'];

function mutate(text: string, next: () => number): string {
  let out = text;
  const steps = 1 + Math.floor(next() * 6);
  for (let i = 0; i < steps; i++) {
    const at = Math.floor(next() * (out.length + 1));
    const kind = next();
    if (kind < 0.45) out = out.slice(0, at) + TOKENS[Math.floor(next() * TOKENS.length)] + out.slice(at);
    else if (kind < 0.65) out = out.slice(0, at) + out.slice(at + Math.floor(next() * 20));
    else if (kind < 0.8) out = out.slice(0, at) + out.slice(at, at + 40) + out.slice(at);
    else if (kind < 0.9) out = out.slice(0, at) + String.fromCharCode(Math.floor(next() * 0xffff)) + out.slice(at);
    else out = out.slice(0, at);
  }
  return out;
}

function randomDocument(next: () => number): string {
  if (next() < 0.8) return mutate(SEEDS[Math.floor(next() * SEEDS.length)]!, next);
  // Pure noise: tokens and characters in any order.
  return Array.from({ length: Math.floor(next() * 60) }, () => (next() < 0.7 ? TOKENS[Math.floor(next() * TOKENS.length)] : String.fromCharCode(32 + Math.floor(next() * 95)))).join('');
}

describe('cli/build/markdown (fuzz)', () => {
  let renderer: MarkdownRenderer;

  it(`renders ${CASES} random and mutated documents without a crash or a hang, naming the file of every problem`, async () => {
    renderer = await createMarkdownRenderer({ codeTheme: 'github-dark', highlightLanguages: ['ruby', 'bash', 'python'], toc: { minLevel: 2, maxLevel: 3 }, displayPrefix: 'content/', routeOfFile: { 'other.md': '/other' } });
    const next = random(20261121);
    const failures: string[] = [];
    for (let i = 0; i < CASES; i++) {
      const text = randomDocument(next);
      const file = `content/fuzz/case-${i}.md`;
      try {
        const split = parseFrontmatter(text, file);
        for (const problem of split.problems) if (problem.file !== file) failures.push(`#${i} frontmatter problem without its file`);
        let timer: NodeJS.Timeout | undefined;
        const out = await Promise.race([
          renderer.render({ rel: `fuzz/case-${i}.md`, body: split.body, resolveImage: () => undefined }),
          new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`hung for ${HANG_MS} ms`)), HANG_MS))),
        ]).finally(() => clearTimeout(timer));
        for (const problem of [...out.errors, ...out.warnings]) if (problem.file !== file) failures.push(`#${i}: a problem names ${problem.file}`);
        expect(typeof out.html).toBe('string');
      } catch (error) {
        failures.push(`#${i} ${JSON.stringify(text)}: ${(error as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});

describe('cli/build/markdown (crashes the fuzzer found)', () => {
  it('takes a malformed percent escape in a link or image literally', async () => {
    const renderer = await createMarkdownRenderer({ codeTheme: 'github-dark', highlightLanguages: [], toc: { minLevel: 2, maxLevel: 3 }, displayPrefix: 'content/', routeOfFile: {} });
    const out = await renderer.render({ rel: 'a.md', body: '![img](./img%/a.png)\n\n[link](./b.md#100%)\n', resolveImage: () => undefined });
    expect(out.errors.map((error) => error.message)).toEqual(['image "./img%/a.png" does not exist']);
  });

  it('reports a YAML alias to nothing in frontmatter instead of throwing', () => {
    const split = parseFrontmatter('---\ntitle: *Seed\n---\n\nText\n', 'content/a.md');
    expect(split.problems).toEqual([expect.objectContaining({ file: 'content/a.md', line: 2, message: expect.stringContaining('frontmatter is not valid YAML') })]);
  });
});
