import { describe, expect, it } from 'vitest';
import { backslashProblem, backslashRefs, danglingRefs, refTargetHint, valueAt } from '../../../../../cli/build/openapi/refs';

const spec = {
  openapi: '3.0.3',
  paths: { '/a': { get: { parameters: [{ name: 'q', in: 'query' }], responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Team' } } } } } } } },
  components: { schemas: { Team: { type: 'object' }, 'a/b': { type: 'string' } } },
};

describe('cli/build/openapi/refs', () => {
  it('finds a place by own keys only: names every object inherits, and a list\'s length, name nothing', () => {
    expect(valueAt(spec, '/components/schemas/Team')).toEqual({ type: 'object' });
    expect(valueAt(spec, '/components/schemas/a~1b')).toEqual({ type: 'string' });
    expect(valueAt(spec, '/paths/~1a/get/parameters/0/name')).toBe('q');
    for (const pointer of ['/components/schemas/__proto__', '/components/schemas/constructor', '/components/__proto__/Team', '/paths/toString', '/paths/~1a/get/parameters/length', '/paths/~1a/get/parameters/01', '/paths/~1a/get/parameters/1', '/components/schemas/hasOwnProperty']) {
      expect(valueAt(spec, pointer), pointer).toBeUndefined();
    }
  });

  it('lists each $ref to a place of the spec that holds nothing, at its own pointer', () => {
    const broken = structuredClone(spec);
    broken.paths['/a'].get.responses['200'].content['application/json'].schema.$ref = '#/components/schemas/__proto__';
    Object.assign(broken.components.schemas, { Crew: { $ref: '#/paths/constructor' }, Ok: { $ref: '#/components/schemas/a~1b' } });
    expect(danglingRefs(broken)).toEqual([
      ['#/components/schemas/__proto__', '/paths/~1a/get/responses/200/content/application~1json/schema/$ref'],
      ['#/paths/constructor', '/components/schemas/Crew/$ref'],
    ]);
  });

  it('offers what the deepest existing place on a missing pointer holds', () => {
    expect(refTargetHint(spec, '/components/schemas/constructor', '#')).toBe(', e.g. one of: #/components/schemas/Team, #/components/schemas/a~1b');
    expect(refTargetHint(spec, '/components/__proto__/x', '#')).toBe(', e.g. one of: #/components/schemas');
    expect(refTargetHint({ Team: {} }, '/Nope', './team.yaml#')).toBe(', e.g. one of: ./team.yaml#/Team');
  });

  it('names a $ref path with backslashes, escaped ones too, and a Windows drive path, each with a fix that builds', () => {
    const spec = { a: { $ref: '..\\schemas\\team.yaml' }, b: { $ref: '..%5Cschemas%5cteam.yaml#/Team' }, c: { $ref: 'C:\\schemas\\team.yaml' }, d: { $ref: './ok.yaml#/a\\b' } };
    expect(backslashRefs(spec).map(([ref]) => ref)).toEqual(['..\\schemas\\team.yaml', '..%5Cschemas%5cteam.yaml#/Team', 'C:\\schemas\\team.yaml']);
    expect(backslashProblem('..%5Cschemas%5cteam.yaml#/Team').fix).toBe('write it with slashes: ../schemas/team.yaml#/Team');
    expect(backslashProblem('C:\\schemas\\team.yaml')).toEqual({ message: '$ref "C:\\schemas\\team.yaml" is a Windows path from a drive: a $ref names a file by its path from the file that holds it', fix: "write the path from the spec's folder with slashes, e.g. ./schemas/team.yaml" });
  });
});
