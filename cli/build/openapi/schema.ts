/**
 * JSON schemas of a spec as markdown a reader can scan: a nested list of properties with type,
 * required marker, constraints, enum values and nullability; `oneOf`/`anyOf` as labelled options,
 * `allOf` merged; recursion cut with a note. Also example values derived from a schema.
 */
import type { OpenAPIV3 } from 'openapi-types';

/** A schema as the dereferencer leaves it: `$ref`s resolved, 3.0 and 3.1 shapes both allowed. */
export type Schema = Omit<OpenAPIV3.BaseSchemaObject, 'allOf' | 'oneOf' | 'anyOf' | 'not' | 'properties' | 'additionalProperties'> & {
  /** 3.1 allows a list, e.g. `['string', 'null']`. */
  type?: string | string[];
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  not?: Schema;
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  const?: unknown;
  examples?: unknown[];
};

/** Deepest nesting shown; deeper levels are summarised. */
const MAX_DEPTH = 8;

/** Markdown-safe inline text: one line, no table pipes. */
export function inline(text: string | undefined): string {
  return (text ?? '').replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|').trim();
}

/** `code` with a fence long enough for backticks inside. */
export function code(text: string): string {
  const ticks = text.includes('`') ? '``' : '`';
  return `${ticks}${ticks.length > 1 ? ' ' : ''}${text}${ticks.length > 1 ? ' ' : ''}${ticks}`;
}

function types(schema: Schema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  return schema.type ? [schema.type] : [];
}

/** True when the schema allows null (3.0 `nullable`, 3.1 `type: [..., 'null']`). */
export function isNullable(schema: Schema): boolean {
  return schema.nullable === true || types(schema).includes('null');
}

/**
 * `allOf` parts merged into one object schema (properties, required, description). A part that is
 * (or contains) a schema already being merged — `A: {allOf: [$ref: A]}`, or A → B → A — adds nothing
 * and is skipped: the recursion is cut.
 */
export function mergeAllOf(schema: Schema, within: Set<Schema> = new Set()): Schema {
  if (!schema.allOf) return schema;
  if (within.has(schema)) return {};
  const inner = new Set(within).add(schema);
  const merged: Schema = { ...schema, allOf: undefined, properties: { ...(schema.properties ?? {}) }, required: [...(schema.required ?? [])] };
  for (const part of schema.allOf as Schema[]) {
    if (!part || typeof part !== 'object') continue;
    const flat = mergeAllOf(part, inner);
    Object.assign(merged.properties!, flat.properties ?? {});
    merged.required!.push(...(flat.required ?? []));
    merged.type ??= flat.type;
    merged.description ??= flat.description;
    merged.oneOf ??= flat.oneOf;
    merged.discriminator ??= flat.discriminator;
  }
  if (merged.required!.length === 0) delete merged.required;
  return merged;
}

/**
 * `string (email)`, `array of object`, `integer | null`. An array whose items are an array already
 * being labelled (`A: {type: array, items: $ref: A}`) ends in `(recursive)`: the recursion is cut.
 */
export function typeLabel(schema: Schema, within: Set<Schema> = new Set()): string {
  const flat = mergeAllOf(schema);
  const own = types(flat).filter((type) => type !== 'null');
  let label = own.length > 0 ? own.join(' | ') : flat.properties ? 'object' : flat.oneOf ? 'one of' : flat.anyOf ? 'any of' : 'any';
  // `not: {type: string}`: anything but a string, never "any".
  if (label === 'any' && flat.not && typeof flat.not === 'object') label = within.has(flat.not) ? 'not (recursive)' : `not ${typeLabel(flat.not, new Set(within).add(schema))}`;
  if (own.includes('array') && flat.items && typeof flat.items === 'object') {
    const items = flat.items as Schema;
    const inner = new Set(within).add(schema);
    label = `array of ${inner.has(items) ? '(recursive)' : typeLabel(items, inner)}`;
  }
  if (flat.format) label += ` (${flat.format})`;
  return label;
}

/**
 * Constraints and flags after the type: `required`, `nullable`, `min 1`, `one of: a, b`, `default: x`;
 * for a list whose items are plain values, what each item must be (`each one of: a, b`), since the
 * items get no line of their own.
 */
export function schemaFacts(schema: Schema, required: boolean): string[] {
  const facts: string[] = [];
  if (required) facts.push('required');
  if (isNullable(schema)) facts.push('nullable');
  if (schema.deprecated) facts.push('deprecated');
  if (schema.readOnly) facts.push('read-only');
  if (schema.writeOnly) facts.push('write-only');
  facts.push(...constraintFacts(schema));
  if (schema.default !== undefined) facts.push(`default: ${code(json(schema.default))}`);
  const items = types(schema).includes('array') && schema.items && typeof schema.items === 'object' ? mergeAllOf(schema.items) : undefined;
  if (items && !items.properties && !items.oneOf && !items.anyOf) facts.push(...constraintFacts(items).map((fact) => `each ${fact}`));
  return facts;
}

/** What a value must be: bounds, pattern, allowed values, uniqueness. */
function constraintFacts(schema: Schema): string[] {
  const facts: string[] = [];
  const bounds: [keyof Schema, string][] = [
    ['minLength', 'min length'],
    ['maxLength', 'max length'],
    ['minimum', 'minimum'],
    ['maximum', 'maximum'],
    ['minItems', 'min items'],
    ['maxItems', 'max items'],
    ['multipleOf', 'a multiple of'],
    ['minProperties', 'min keys'],
    ['maxProperties', 'max keys'],
  ];
  for (const [key, label] of bounds) if (schema[key] !== undefined) facts.push(`${label} ${String(schema[key])}`);
  if (schema.exclusiveMinimum !== undefined && schema.exclusiveMinimum !== false) facts.push(`greater than ${String(schema.exclusiveMinimum === true ? schema.minimum : schema.exclusiveMinimum)}`);
  if (schema.exclusiveMaximum !== undefined && schema.exclusiveMaximum !== false) facts.push(`less than ${String(schema.exclusiveMaximum === true ? schema.maximum : schema.exclusiveMaximum)}`);
  if (schema.pattern) facts.push(`pattern ${code(schema.pattern)}`);
  if (schema.enum) facts.push(`one of: ${schema.enum.map((value) => code(json(value))).join(', ')}`);
  if (schema.const !== undefined) facts.push(`always ${code(json(schema.const))}`);
  if (schema.uniqueItems) facts.push('no repeated items');
  return facts;
}

/**
 * `value` with every place that holds one of its own ancestors replaced by `"(recursive)"`: an
 * example or default whose `$ref` points back into itself is data with no end, shown with the
 * recursion cut (JSON.stringify would throw). Values without such a place are returned as they are.
 */
export function acyclic(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  let cyclic = false;
  const copy = (node: unknown, ancestors: Set<object>): unknown => {
    if (node === null || typeof node !== 'object') return node;
    if (ancestors.has(node)) {
      cyclic = true;
      return '(recursive)';
    }
    const inner = new Set(ancestors).add(node);
    if (Array.isArray(node)) return node.map((item) => copy(item, inner));
    if (typeof (node as { toJSON?: unknown }).toJSON === 'function') return node;
    return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, copy(child, inner)]));
  };
  const result = copy(value, new Set());
  return cyclic ? result : value;
}

/** JSON text of a value from a spec, with any recursion in it cut (acyclic). */
export function json(value: unknown, space?: number): string {
  return JSON.stringify(acyclic(value), null, space);
}

/**
 * Lines a schema's tree may take with every schema shown in full wherever it appears. A spec that
 * reuses components without a cycle (each level's four properties a `$ref` to the next level) makes a
 * tree that grows fourfold with each level: eight levels were 65,536 lines, twelve a build of minutes
 * that ran out of stack. Past this size the tree is made again with each schema shown once and every
 * later place that uses it pointing back to the first: as many lines as the spec has schemas.
 */
const FULL_TREE_LINES = 1_000;
/** Values an example may hold with every schema filled in wherever it appears; past it, a schema met again is an empty object or list (see `FULL_TREE_LINES`). */
const FULL_EXAMPLE_VALUES = 2_000;

/** Thrown when a tree or an example passes its size with every schema in full. */
class TooLarge extends Error {}

/**
 * How a tree or an example is being made: in full within a budget (`left`), or with each schema once
 * (`shown`: where each schema was first shown, by schema).
 */
type Expansion = { left: number; shown?: undefined } | { left?: undefined; shown: Map<Schema, string> };

/** Counts one line or value against `expansion`'s budget. */
function spend(expansion: Expansion): void {
  if (expansion.left !== undefined && --expansion.left < 0) throw new TooLarge();
}

/** `make` in full within `budget`, else with each schema once. */
function bounded<T>(budget: number, make: (expansion: Expansion) => T): T {
  try {
    return make({ left: budget });
  } catch (error) {
    if (!(error instanceof TooLarge)) throw error;
    return make({ shown: new Map() });
  }
}

/** The lines of a schema tree, as a markdown list indented by `indent` spaces. */
export function schemaTree(schema: Schema, indent = 0): string[] {
  return bounded(FULL_TREE_LINES, (expansion) => {
    const lines: string[] = [];
    childrenOf(schema, indent, new Set(), 0, expansion, '', lines);
    return lines;
  });
}

function item(indent: number, head: string, facts: string[], description: string | undefined): string {
  const tail = [facts.length > 0 ? facts.join(' · ') : '', inline(description)].filter(Boolean).join(' — ');
  return `${' '.repeat(indent)}- ${head}${tail ? ` · ${tail}` : ''}`;
}

/** Adds the lines of `schema`'s children to `lines`; `path` names where it is (`team.members[]`), for a later place that points back. */
function childrenOf(schema: Schema, indent: number, ancestors: Set<Schema>, depth: number, expansion: Expansion, path: string, lines: string[]): void {
  const add = (line: string): void => {
    spend(expansion);
    lines.push(line);
  };
  // A plain value (a string, a list of numbers) has no lines below it, however deep it is.
  if (!hasChildren(schema)) return;
  if (ancestors.has(schema)) return add(`${' '.repeat(indent)}- *(recursive: the same structure as above)*`);
  if (depth >= MAX_DEPTH) return add(`${' '.repeat(indent)}- *(nested further)*`);
  const first = expansion.shown?.get(schema);
  if (first !== undefined) return add(`${' '.repeat(indent)}- *(the same structure as ${code(first)} above)*`);
  expansion.shown?.set(schema, path);
  const inner = new Set(ancestors).add(schema);
  const flat = mergeAllOf(schema);
  const alternatives = (flat.oneOf ?? flat.anyOf) as Schema[] | undefined;
  if (alternatives) {
    const word = flat.oneOf ? 'Exactly one of' : 'Any of';
    const discriminator = flat.discriminator ? `, chosen by ${code(flat.discriminator.propertyName)}` : '';
    add(`${' '.repeat(indent)}- *${word} these${discriminator}:*`);
    alternatives.forEach((option, i) => {
      const name = option.title ?? discriminatorValue(flat, option) ?? `Option ${i + 1}`;
      add(item(indent + 2, `**${inline(name)}** ${code(typeLabel(option))}`, schemaFacts(option, false), option.description));
      childrenOf(option, indent + 4, inner, depth + 1, expansion, path ? `${path} (${name})` : name, lines);
    });
  }
  if (flat.properties) {
    const required = new Set(flat.required ?? []);
    for (const [name, property] of Object.entries(flat.properties) as [string, Schema][]) {
      add(item(indent, `${code(name)} ${code(typeLabel(property))}`, schemaFacts(property, required.has(name)), property.description));
      childrenOf(property, indent + 2, inner, depth + 1, expansion, path ? `${path}.${name}` : name, lines);
    }
  }
  const items = types(flat).includes('array') ? (flat.items as Schema | undefined) : undefined;
  if (items && (mergeAllOf(items).properties || items.oneOf || items.anyOf)) childrenOf(items, indent, inner, depth + 1, expansion, `${path}[]`, lines);
  if (flat.additionalProperties && typeof flat.additionalProperties === 'object') {
    const value = flat.additionalProperties as Schema;
    add(item(indent, `*any other key* ${code(typeLabel(value))}`, schemaFacts(value, false), value.description));
    childrenOf(value, indent + 2, inner, depth + 1, expansion, path ? `${path}.*` : '*', lines);
  }
}

/** True when `childrenOf` shows anything below `schema`: options, properties, items that have some, other keys. */
function hasChildren(schema: Schema): boolean {
  const flat = mergeAllOf(schema);
  if (flat.oneOf || flat.anyOf || flat.properties || (flat.additionalProperties && typeof flat.additionalProperties === 'object')) return true;
  const items = types(flat).includes('array') ? (flat.items as Schema | undefined) : undefined;
  return items !== undefined && typeof items === 'object' && (mergeAllOf(items).properties !== undefined || items.oneOf !== undefined || items.anyOf !== undefined);
}

/** The discriminator value that selects `option`, from the mapping or the option's `const`/enum. */
function discriminatorValue(parent: Schema, option: Schema): string | undefined {
  const property = parent.discriminator?.propertyName;
  if (!property) return undefined;
  const own = (mergeAllOf(option).properties?.[property] ?? {}) as Schema;
  if (own.const !== undefined) return String(own.const);
  if (own.enum?.length === 1) return String(own.enum[0]);
  return undefined;
}

/** An example value for a schema: its own example, else one built from its type (a schema met again in a large one: see `FULL_EXAMPLE_VALUES`). */
export function exampleOf(schema: Schema | undefined): unknown {
  return bounded(FULL_EXAMPLE_VALUES, (expansion) => exampleWithin(schema, new Set(), expansion));
}

function exampleWithin(schema: Schema | undefined, seen: Set<Schema>, expansion: Expansion): unknown {
  if (!schema) return undefined;
  spend(expansion);
  if (schema.example !== undefined) return schema.example;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  if (seen.has(schema)) return undefined;
  // A schema filled in once already, in an example made with each schema once: an empty object or list.
  const again = expansion.shown?.has(schema) ?? false;
  expansion.shown?.set(schema, '');
  const inner = new Set(seen).add(schema);
  const flat = mergeAllOf(schema);
  const alternatives = (flat.oneOf ?? flat.anyOf) as Schema[] | undefined;
  if (alternatives?.length && !flat.properties) return again ? undefined : exampleWithin(alternatives[0], inner, expansion);
  const type = types(flat).find((candidate) => candidate !== 'null') ?? (flat.properties ? 'object' : undefined);
  if (again && (type === 'object' || type === 'array')) return type === 'object' ? {} : [];
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(flat.properties ?? {}) as [string, Schema][]) {
        if (property.readOnly) continue;
        const example = exampleWithin(property, inner, expansion);
        if (example !== undefined) value[name] = example;
      }
      if (alternatives?.length) Object.assign(value, exampleWithin(alternatives[0], inner, expansion) as object);
      return value;
    }
    case 'array': {
      const example = exampleWithin(flat.items as Schema, inner, expansion);
      return example === undefined ? [] : [example];
    }
    case 'integer':
    case 'number':
      return flat.minimum ?? 0;
    case 'boolean':
      return true;
    case 'string':
      return stringExample(flat.format);
    default:
      return undefined;
  }
}

function stringExample(format: string | undefined): string {
  switch (format) {
    case 'email':
      return 'user@example.com';
    case 'date-time':
      return '2025-05-14T18:00:00Z';
    case 'date':
      return '2025-05-14';
    case 'uuid':
      return '3f6c1f5e-8a52-4c4b-9a61-2f1e6d0b7c21';
    case 'uri':
    case 'url':
      return 'https://example.com';
    case 'password':
      return 'correct horse battery staple';
    default:
      return 'string';
  }
}
