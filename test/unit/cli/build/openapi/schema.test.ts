import { describe, expect, it } from 'vitest';
import { exampleOf, schemaTree, typeLabel, type Schema } from '../../../../../cli/build/openapi/schema';
import { kebab } from '../../../../../cli/build/openapi/pages';

describe('cli/build/openapi/schema', () => {
  it('shows required, constraints, enums, nullable and nested objects', () => {
    const schema: Schema = {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 64, description: 'Team name.' },
        colour: { type: 'string', enum: ['red', 'blue'], nullable: true },
        members: { type: 'array', items: { type: 'object', properties: { email: { type: 'string', format: 'email' } } } },
      },
    };
    expect(schemaTree(schema)).toEqual([
      '- `name` `string` · required · min length 1 · max length 64 — Team name.',
      '- `colour` `string` · nullable · one of: `"red"`, `"blue"`',
      '- `members` `array of object`',
      '  - `email` `string (email)`',
    ]);
  });

  it("shows what each item of a list of plain values must be, multiples and uniqueness, and nothing 'nested' under a plain value however deep", () => {
    const schema: Schema = {
      type: 'object',
      properties: {
        allergens: { type: 'array', uniqueItems: true, items: { type: 'string', enum: ['gluten', 'milk'] } },
        beacon_ids: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^bcn-[0-9]{3}$' } },
        price: { type: 'number', minimum: 0, multipleOf: 0.01 },
      },
    };
    expect(schemaTree(schema)).toEqual([
      '- `allergens` `array of string` · no repeated items · each one of: `"gluten"`, `"milk"`',
      '- `beacon_ids` `array of string` · min items 1 · each pattern `^bcn-[0-9]{3}$`',
      '- `price` `number` · minimum 0 · a multiple of 0.01',
    ]);
    // Eight levels of objects, a string at the bottom: the string is a line, with nothing below it.
    let deep: Schema = { type: 'object', properties: { opens: { type: 'string', pattern: '^[0-2][0-9]:[0-5][0-9]$' } } };
    for (let level = 0; level < 7; level++) deep = { type: 'object', properties: { [`l${level}`]: deep } };
    const lines = schemaTree(deep);
    expect(lines.at(-1)).toMatch(/^ +- `opens` `string` · pattern/);
    expect(lines.filter((line) => line.includes('nested further'))).toEqual([]);
  });

  it('labels oneOf options, merges allOf, and cuts recursion', () => {
    const node: Schema = { type: 'object', properties: { id: { type: 'integer' } } };
    node.properties!.children = { type: 'array', items: node };
    const lines = schemaTree({ oneOf: [{ title: 'Leaf', allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { properties: { b: { type: 'string' } }, required: ['b'] }] }, node] });
    expect(lines[0]).toBe('- *Exactly one of these:*');
    expect(lines).toContain('  - **Leaf** `object`');
    expect(lines).toContain('    - `b` `string` · required');
    expect(lines.some((line) => line.includes('recursive'))).toBe(true);
    expect(typeLabel({ type: ['integer', 'null'] })).toBe('integer');
  });

  it('derives examples from schemas, through cycles', () => {
    const node: Schema = { type: 'object', properties: { id: { type: 'integer', minimum: 1 }, email: { type: 'string', format: 'email' } } };
    node.properties!.parent = node;
    expect(exampleOf(node)).toEqual({ id: 1, email: 'user@example.com' });
    expect(exampleOf({ type: 'string', example: 'x' })).toBe('x');
  });

  it('shows a small schema in full at every place that uses it', () => {
    const money: Schema = { type: 'object', properties: { amount: { type: 'integer' }, currency: { type: 'string' } } };
    const lines = schemaTree({ type: 'object', properties: { price: money, deposit: money } });
    expect(lines).toEqual(['- `price` `object`', '  - `amount` `integer`', '  - `currency` `string`', '- `deposit` `object`', '  - `amount` `integer`', '  - `currency` `string`']);
    expect(exampleOf({ type: 'object', properties: { price: money, deposit: money } })).toEqual({ price: { amount: 0, currency: 'string' }, deposit: { amount: 0, currency: 'string' } });
  });

  it('shows each schema once, and points back to it, where reuse without a cycle would multiply the tree', () => {
    // Twelve levels, each of four properties that are the next level: 4^12 places, 13 schemas.
    const levels: Schema[] = [{ type: 'string' }];
    for (let level = 0; level < 12; level++) levels.unshift({ type: 'object', properties: Object.fromEntries(['north', 'east', 'south', 'west'].map((name) => [name, levels[0]!])) });
    const lines = schemaTree(levels[0]!);
    expect(lines.length).toBeLessThan(100);
    expect(lines.slice(0, 3)).toEqual(['- `north` `object`', '  - `north` `object`', '    - `north` `object`']);
    expect(lines).toContain('    - *(the same structure as `north.north` above)*');
    expect(lines).toContain('- `west` `object`');
    expect(lines.at(-1)).toBe('  - *(the same structure as `north` above)*');
    const example = exampleOf(levels[0]!) as Record<string, unknown>;
    expect(Object.keys(example)).toEqual(['north', 'east', 'south', 'west']);
    expect(JSON.stringify(example).length).toBeLessThan(5_000);
  });

  it('turns operation ids into kebab-case slugs', () => {
    expect(kebab('userLogin')).toBe('user-login');
    expect(kebab('queryGraphQl')).toBe('query-graph-ql');
    expect(kebab('sendPasswordResetEmail')).toBe('send-password-reset-email');
    expect(kebab('Get the scoreboard')).toBe('get-the-scoreboard');
  });
});
