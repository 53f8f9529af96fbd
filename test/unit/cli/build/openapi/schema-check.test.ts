import { describe, expect, it } from 'vitest';
import { schemaProblems } from '../../../../../cli/build/openapi/schema-check';

/** A 3.1 document whose one request body has `schema`. */
const spec = (schema: unknown, components: Record<string, unknown> = {}): unknown => ({
  openapi: '3.1.0',
  info: { title: 'T', version: '1' },
  paths: { '/a': { post: { requestBody: { content: { 'application/json': { schema } } }, parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }], responses: { '200': { description: 'ok' } } } } },
  components: { schemas: components },
});
const body = '/paths/~1a/post/requestBody/content/application~1json/schema';

describe('schemaProblems: the keywords the reference pages read, by type', () => {
  it('names each wrong keyword at its pointer, with what it must be and an example', () => {
    const problems = schemaProblems(
      spec({ type: 'object', properties: { p: { enum: 'notalist' }, q: { description: { a: 1 } }, r: { pattern: 12 }, s: { oneOf: 'x' }, t: { items: 5 } }, required: 'p' }, { Team: { type: 5, allOf: [{ minimum: 'x' }] } }),
    );
    expect(problems.map((problem) => `${problem.pointer}: ${problem.message}`)).toEqual([
      `${body}/properties/p/enum: \`enum\` must be a list, got the string "notalist"`,
      `${body}/properties/q/description: \`description\` must be a string, got an object`,
      `${body}/properties/r/pattern: \`pattern\` must be a string, got the number 12`,
      `${body}/properties/s/oneOf: \`oneOf\` must be a list of schemas, got the string "x"`,
      `${body}/properties/t/items: \`items\` must be a schema, got the number 5`,
      `${body}/required: \`required\` must be a list of strings, got the string "p"`,
      '/components/schemas/Team/type: `type` must be a string or list of strings, got the number 5',
      '/components/schemas/Team/allOf/0/minimum: `minimum` must be a number, got the string "x"',
    ]);
    expect(problems[0]!.fix).toBe('write a list, e.g. enum: [active, spare]');
  });

  it('takes what 3.0 and 3.1 allow: boolean schemas, type lists, exclusive bounds as numbers or flags, $refs, property names that are keywords', () => {
    const good = {
      type: ['object', 'null'],
      properties: { type: { type: 'string', enum: ['a', 'b'] }, description: { type: 'string' }, open: true, never: false, items: { type: 'array', items: { $ref: '#/components/schemas/Team' }, prefixItems: [{ type: 'integer' }] } },
      additionalProperties: false,
      required: ['type'],
      examples: [{ type: 'a' }],
      exclusiveMinimum: 0,
    };
    expect(schemaProblems(spec(good, { Team: { type: 'object', exclusiveMaximum: true, maximum: 3, description: 'A team', nullable: true } }))).toEqual([]);
  });

  it('leaves example values alone, however they look', () => {
    expect(schemaProblems(spec({ type: 'object', example: { enum: 5, schema: { type: 7 } }, default: { description: [] } }))).toEqual([]);
  });
});
