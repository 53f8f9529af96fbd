/**
 * Fuzzing the markdown stage: thousands of random and mutated documents go through the real pipeline
 * (frontmatter, parse, directives, links, highlighting, raw HTML, headings, React render). None may
 * crash or hang, and every problem reported must name its file. Seeded, so a failure reproduces.
 */
import { describe, expect, it } from 'vitest';
import { parseFrontmatter } from '../../../../../cli/build/frontmatter';
import { createMarkdownRenderer, type MarkdownRenderer } from '../../../../../cli/build/markdown/index';
import { normaliseText } from '../../../../../cli/build/sources';
import { hostileDocument, random, randomDocument } from '../../../../support/markdown-fuzz';

/** At least 2,000 in CI; `DOCS_FUZZ_CASES` runs more (locally, to hunt). */
const CASES = Number(process.env.DOCS_FUZZ_CASES ?? 2000);
/**
 * A document that takes longer than this counts as a hang. The hangs this found took minutes (a
 * quadratic scan of a 2 MB line); the slowest document that renders in linear time, 368 KB of bare
 * URLs (33,000 links), takes 3.6 s alone and 5.5 s beside another test file (`npm test` runs two at a
 * time): this is a hang detector, not a benchmark.
 */
const HANG_MS = 15_000;

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
        // Rendering is synchronous at heart, so a timer could not interrupt it: measure instead.
        const started = performance.now();
        const out = await renderer.render({ rel: `fuzz/case-${i}.md`, body: split.body, resolveImage: () => undefined, resolveFile: () => undefined });
        if (performance.now() - started > HANG_MS) failures.push(`#${i} took ${Math.round(performance.now() - started)} ms`);
        for (const problem of [...out.errors, ...out.warnings]) if (problem.file !== file) failures.push(`#${i}: a problem names ${problem.file}`);
        expect(typeof out.html).toBe('string');
      } catch (error) {
        failures.push(`#${i} ${JSON.stringify(text)}: ${(error as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});

describe('cli/build/markdown (fuzz: deep nesting, long lines, CRLF)', () => {
  it('refuses or renders 80 hostile documents quickly, never crashing, naming the file and line of each refusal', async () => {
    const renderer = await createMarkdownRenderer({ codeTheme: 'github-dark', highlightLanguages: [], toc: { minLevel: 2, maxLevel: 3 }, displayPrefix: 'content/', routeOfFile: {} });
    const next = random(20261124);
    const failures: string[] = [];
    for (let i = 0; i < 80; i++) {
      // As the build reads a file: byte-order mark dropped, CRLF made LF.
      const raw = hostileDocument(next);
      const text = normaliseText(raw);
      const file = `content/hostile/case-${i}.md`;
      const started = performance.now();
      try {
        const split = parseFrontmatter(text, file);
        if (/^\uFEFF?---\r\n/.test(raw) && split.problems.length === 0 && Object.keys(split.frontmatter).length === 0) failures.push(`#${i}: CRLF frontmatter not recognised`);
        if (split.body.includes('\r')) failures.push(`#${i}: a carriage return reached the body`);
        const out = await renderer.render({ rel: `hostile/case-${i}.md`, body: split.body, resolveImage: () => undefined, resolveFile: () => undefined });
        for (const problem of out.errors) if (problem.file !== file || problem.line === undefined) failures.push(`#${i}: a problem without its file and line: ${JSON.stringify(problem)}`);
      } catch (error) {
        failures.push(`#${i} (${raw.slice(0, 40)}…): ${(error as Error).message}`);
      }
      const ms = performance.now() - started;
      if (ms > HANG_MS) failures.push(`#${i} (${raw.slice(0, 40)}…, ${raw.length} chars) took ${Math.round(ms)} ms`);
    }
    expect(failures).toEqual([]);
  }, 240_000);
});

describe('cli/build/markdown (crashes the fuzzer found)', () => {
  it('takes a malformed percent escape in a link or image literally', async () => {
    const renderer = await createMarkdownRenderer({ codeTheme: 'github-dark', highlightLanguages: [], toc: { minLevel: 2, maxLevel: 3 }, displayPrefix: 'content/', routeOfFile: {} });
    const out = await renderer.render({ rel: 'a.md', body: '![img](./img%/a.png)\n\n[link](./b.md#100%)\n', resolveImage: () => undefined, resolveFile: () => undefined });
    expect(out.errors.map((error) => error.message)).toEqual(['image "./img%/a.png" does not exist']);
  });

  it('reports a YAML alias to nothing in frontmatter instead of throwing', () => {
    const split = parseFrontmatter('---\ntitle: *Seed\n---\n\nText\n', 'content/a.md');
    expect(split.problems).toEqual([expect.objectContaining({ file: 'content/a.md', line: 2, message: expect.stringContaining('frontmatter is not valid YAML') })]);
  });
});
