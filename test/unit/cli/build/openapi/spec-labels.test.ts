/** The sidebar names of a spec held to the label limit (cli/build/openapi/spec-labels.ts). */
import { describe, expect, it } from 'vitest';
import { specLabelProblems } from '../../../../../cli/build/openapi/spec-labels';

const long = 'T'.repeat(1_001);

describe('the sidebar names of a spec', () => {
  it('reports a long tag once, at its first operation, and each long summary, and an operationId only where it names the page', () => {
    const spec = {
      info: { title: 'Timing' },
      paths: {
        '/teams': { get: { operationId: 'listTeams', tags: [long] }, post: { summary: long, tags: [long] } },
        '/laps': { get: { operationId: long, tags: [long] }, put: { operationId: long, summary: 'Record a lap' } },
      },
      webhooks: { lapCounted: { post: { summary: long } } },
    };
    expect(specLabelProblems(spec).map((problem) => problem.pointer)).toEqual(['/paths/~1teams/get/tags/0', '/paths/~1teams/post/summary', '/paths/~1laps/get/operationId', '/webhooks/lapCounted/post/summary']);
  });

  it('takes exactly 1,000 characters, counted as a reader sees them (an emoji is one)', () => {
    expect(specLabelProblems({ info: { title: 'T'.repeat(1_000) }, paths: { '/a': { get: { summary: '🏁'.repeat(1_000) } } } })).toEqual([]);
  });
});
