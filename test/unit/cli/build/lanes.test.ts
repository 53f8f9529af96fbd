import { describe, expect, it } from 'vitest';
import type { ResolvedConfig } from '../../../../cli/build/config';
import { collectContent, readPageLean, type SourceFile } from '../../../../cli/build/content';
import { jobsOf } from '../../../../cli/build/jobs';
import { costlyParts, pageCost, planLanes, takeBatch } from '../../../../cli/build/lanes';
import { lanesOf } from '../../../../cli/build/pool';

const page = (...langs: string[]): string => ['# A page', '', 'Some text to read.', ...langs.flatMap((lang) => ['', '```' + lang, 'code', '```'])].join('\n');

describe('costlyParts: what a page costs a render thread beyond its length', () => {
  it('names each fence language once, an alias by its grammar, and diagrams; plain text and indented code cost nothing', () => {
    const body = [page('bash', 'sh', 'TS', 'typescript', 'text', 'mermaid'), '~~~ruby title="Gemfile"', 'gem "rails"', '~~~', '    ```python', '    indented four: code, not a fence'].join('\n');
    expect(costlyParts(body).sort()).toEqual(['bash', 'mermaid', 'ruby', 'typescript']);
    expect(costlyParts(undefined)).toEqual([]);
    expect(costlyParts('# Only prose\n\nNo code here.')).toEqual([]);
  });
});

describe('planLanes: each grammar and diagram to one thread, the markdown evenly', () => {
  it('puts every page of a language in the lane that owns it, and every job in exactly one lane', () => {
    const bodies = [page('ruby'), page('bash'), page('ruby'), 'prose '.repeat(50), page('mermaid'), page('bash'), page('ruby', 'swift'), 'prose '.repeat(50), page('mermaid'), page('swift')];
    const lanes = planLanes(bodies.map(pageCost), 2);
    expect(lanes.flat().sort((a, b) => a - b)).toEqual(bodies.map((_, i) => i));
    const laneOf = (job: number): number => lanes.findIndex((lane) => lane.includes(job));
    // The pages of one language share a lane.
    expect(new Set([0, 2].map(laneOf)).size).toBe(1);
    expect(new Set([1, 5].map(laneOf)).size).toBe(1);
    expect(new Set([4, 8].map(laneOf)).size).toBe(1);
    // A page of two languages goes where most of what it holds is: Ruby and Swift page 6 with one of them.
    expect([laneOf(0), laneOf(9)]).toContain(laneOf(6));
    // Both threads have something of their own to do.
    expect(lanes.every((lane) => lane.length > 0)).toBe(true);
  });

  it('keeps each costly grammar in one lane when pages hold several, and the lanes even', () => {
    // As on the portal: TypeScript pages, some with a diagram; Ruby pages, some with a diagram; API
    // pages holding Ruby, JavaScript, Python, bash and JSON; shell pages; prose.
    const prose = (n: number): string => ` Prose of page ${n}.`.repeat(120);
    const bodies = [
      ...Array.from({ length: 8 }, (_, n) => page('typescript') + prose(n)),
      ...Array.from({ length: 4 }, (_, n) => page('typescript', 'mermaid', 'bash') + prose(n)),
      ...Array.from({ length: 8 }, (_, n) => page('ruby', 'yaml') + prose(n)),
      ...Array.from({ length: 3 }, (_, n) => page('ruby', 'mermaid') + prose(n)),
      ...Array.from({ length: 8 }, (_, n) => page('json', 'bash', 'ruby', 'javascript', 'python') + prose(n)),
      ...Array.from({ length: 10 }, (_, n) => page('bash') + prose(n)),
      ...Array.from({ length: 6 }, (_, n) => prose(n)),
    ];
    const lanes = planLanes(bodies.map(pageCost), 2);
    expect(lanes.flat().sort((a, b) => a - b)).toEqual(bodies.map((_, i) => i));
    const lanesHolding = (lang: string): number => lanes.filter((lane) => lane.some((job) => costlyParts(bodies[job]).includes(lang))).length;
    expect(lanesHolding('typescript')).toBe(1);
    expect(lanesHolding('ruby')).toBe(1);
    expect(lanesHolding('javascript')).toBe(1);
    const size = (lane: number[]): number => lane.reduce((sum, job) => sum + bodies[job]!.length, 0);
    const [a, b] = lanes.map(size);
    expect(Math.abs(a! - b!) / (a! + b!)).toBeLessThan(0.15);
  });

  it('splits a grammar between lanes when its pages are more than one lane can take', () => {
    // Every page TypeScript: one lane alone would take twice as long as two that both compile it.
    const bodies = Array.from({ length: 40 }, (_, n) => page('typescript') + ` Prose of page ${n}.`.repeat(200));
    const lanes = planLanes(bodies.map(pageCost), 2);
    expect(lanes.flat().sort((a, b) => a - b)).toEqual(bodies.map((_, i) => i));
    const counts = lanes.map((lane) => lane.length).sort((x, y) => x - y);
    // Both lanes render half: each compiles the grammar once, and ends as soon as the other.
    expect(counts).toEqual([20, 20]);
  });

  it('keeps the pages that hold nothing costly at the end of each lane, where another thread takes from', () => {
    const bodies = [page('bash'), 'just prose', page('bash'), 'more prose', page('bash')];
    const [lane] = planLanes(bodies.map(pageCost), 1);
    expect(lane).toEqual([0, 2, 4, 1, 3]);
  });

  it('spreads pages of plain prose by length when no page has code', () => {
    const bodies = ['a'.repeat(9000), 'b'.repeat(1000), 'c'.repeat(1000), 'd'.repeat(1000), 'e'.repeat(9000)];
    const lanes = planLanes(bodies.map(pageCost), 2);
    const size = (lane: number[]): number => lane.reduce((sum, job) => sum + bodies[job]!.length, 0);
    expect(Math.abs(size(lanes[0]!) - size(lanes[1]!))).toBeLessThanOrEqual(1000);
  });
});

describe('takeBatch: a thread takes from its lane, then from the end of the fullest', () => {
  it('empties its own lane first, then steals from the back of the longest other lane, then reports none', () => {
    const lanes = [[0, 1, 2], [3, 4, 5, 6, 7], [8]];
    expect(takeBatch(lanes, 0, 2)).toEqual([0, 1]);
    expect(takeBatch(lanes, 0, 2)).toEqual([2]);
    expect(takeBatch(lanes, 0, 2)).toEqual([6, 7]);
    expect(lanes).toEqual([[], [3, 4, 5], [8]]);
    expect(takeBatch(lanes, 2, 4)).toEqual([8]);
    expect(takeBatch(lanes, 2, 4)).toEqual([3, 4, 5]);
    expect(takeBatch(lanes, 1, 4)).toEqual([]);
  });
});

describe('lanesOf: the lanes of a build whose pages were read without their bodies (docs build)', () => {
  it('still gives each language to one thread: the docs keep what their bodies cost', () => {
    const langs = ['ruby', 'ruby', 'typescript', 'typescript', 'ruby', 'typescript'];
    const files: SourceFile[] = langs.map((lang, i) => ({ rel: `docs/p${i}.md`, text: `---\ntitle: Page ${i}\n---\n\n${page(lang)}\n` }));
    files.push({ rel: 'docs/index.md', text: '# Home\n\nProse only.\n' });
    const options = { categories: [], sidebars: [{ id: 'docs', dir: 'docs', label: 'Docs' }], displayPrefix: 'content/' };
    for (const file of files) {
      readPageLean(file, options);
      file.text = '';
    }
    const content = collectContent({ ...options, files });
    const lastUpdates = new Map(content.docs.map((doc) => [doc.rel, { timestamp: 0 }]));
    const api = { source: new Map(), editUrl: new Map(), lastUpdated: new Map(), refFiles: [] };
    const jobs = jobsOf({ content, config: { contentDir: '/nowhere' } as ResolvedConfig, lastUpdates, api });
    expect(jobs.every((job) => job.body === undefined)).toBe(true);
    const lanes = lanesOf(jobs, 2);
    const laneOf = (rel: string): number => lanes.findIndex((lane) => lane.some((job) => jobs[job]!.rel === rel));
    expect(new Set(['docs/p0.md', 'docs/p1.md', 'docs/p4.md'].map(laneOf)).size).toBe(1);
    expect(new Set(['docs/p2.md', 'docs/p3.md', 'docs/p5.md'].map(laneOf)).size).toBe(1);
    expect(laneOf('docs/p0.md')).not.toBe(laneOf('docs/p2.md'));
  });
});
