import { describe, expect, it } from 'vitest';
import { costlyParts, planLanes, takeBatch } from '../../../../cli/build/lanes';

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
    const lanes = planLanes(bodies, 2);
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

  it('keeps the pages that hold nothing costly at the end of each lane, where another thread takes from', () => {
    const bodies = [page('bash'), 'just prose', page('bash'), 'more prose', page('bash')];
    const [lane] = planLanes(bodies, 1);
    expect(lane).toEqual([0, 2, 4, 1, 3]);
  });

  it('spreads pages of plain prose by length when no page has code', () => {
    const bodies = ['a'.repeat(9000), 'b'.repeat(1000), 'c'.repeat(1000), 'd'.repeat(1000), 'e'.repeat(9000)];
    const lanes = planLanes(bodies, 2);
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
