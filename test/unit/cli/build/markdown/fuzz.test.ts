/**
 * Fuzzing the markdown stage: thousands of random and mutated documents go through the real pipeline
 * (frontmatter, parse, directives, links, highlighting, raw HTML, headings, React render). None may
 * crash or hang, and every problem reported must name its file. Seeded, so a failure reproduces.
 */
import { describe, expect, it } from 'vitest';
import { parseFrontmatter } from '../../../../../cli/build/frontmatter';
import { createMarkdownRenderer, type MarkdownRenderer } from '../../../../../cli/build/markdown/index';
import { random, randomDocument } from '../../../../support/markdown-fuzz';

/** At least 2,000 in CI; `DOCS_FUZZ_CASES` runs more (locally, to hunt). */
const CASES = Number(process.env.DOCS_FUZZ_CASES ?? 2000);
/** A document that takes longer than this counts as a hang. */
const HANG_MS = 5000;

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
