/**
 * The keywords of a spec's schemas that the reference pages read, checked for their type. The parser
 * validates a 3.0 document's schemas against the 3.0 meta-schema, but a 3.1 document's schemas are
 * JSON Schema 2020-12, which it does not look into: `enum: notalist` or `description: {a: 1}` reached
 * the page writer and ended the build with a stack trace, or was published as nonsense. Each wrong
 * keyword is a problem at its JSON pointer (the caller adds the line).
 */
import { escapeToken } from './refs';

/** A problem at a place of the spec. */
export interface SchemaProblem {
  pointer: string;
  message: string;
  fix: string;
}

type Kind = 'string' | 'number' | 'boolean' | 'list' | 'list of strings' | 'schema' | 'list of schemas' | 'map of schemas' | 'number or boolean' | 'string or list of strings';

/** What each keyword the pages read must be. */
const KEYWORDS: Record<string, Kind> = {
  type: 'string or list of strings',
  title: 'string',
  description: 'string',
  format: 'string',
  pattern: 'string',
  enum: 'list',
  examples: 'list',
  required: 'list of strings',
  minimum: 'number',
  maximum: 'number',
  multipleOf: 'number',
  minLength: 'number',
  maxLength: 'number',
  minItems: 'number',
  maxItems: 'number',
  minProperties: 'number',
  maxProperties: 'number',
  exclusiveMinimum: 'number or boolean',
  exclusiveMaximum: 'number or boolean',
  nullable: 'boolean',
  deprecated: 'boolean',
  readOnly: 'boolean',
  writeOnly: 'boolean',
  uniqueItems: 'boolean',
  items: 'schema',
  additionalProperties: 'schema',
  not: 'schema',
  properties: 'map of schemas',
  patternProperties: 'map of schemas',
  allOf: 'list of schemas',
  oneOf: 'list of schemas',
  anyOf: 'list of schemas',
  prefixItems: 'list of schemas',
};

/** How a fix shows each kind. */
const EXAMPLE: Record<Kind, string> = {
  string: 'text, e.g. description: "The team\'s name"',
  number: 'a number, e.g. minimum: 0',
  boolean: 'true or false',
  list: 'a list, e.g. KEYWORD: [active, spare]',
  'list of strings': 'a list of property names, e.g. required: [id, name]',
  schema: 'a schema (an object such as { type: string }), or true/false',
  'list of schemas': 'a list of schemas, e.g. KEYWORD: [{ type: string }, { type: integer }]',
  'map of schemas': 'an object with a schema under each name, e.g. properties: { id: { type: integer } }',
  'number or boolean': 'a number (3.1) or true/false (3.0)',
  'string or list of strings': 'a type name or a list of them, e.g. type: string or type: [string, "null"]',
};

const isSchema = (value: unknown): boolean => typeof value === 'boolean' || (typeof value === 'object' && value !== null && !Array.isArray(value));

function fits(value: unknown, kind: Kind): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'list':
      return Array.isArray(value);
    case 'list of strings':
      return Array.isArray(value) && value.every((item) => typeof item === 'string');
    case 'schema':
      return isSchema(value);
    case 'list of schemas':
      return Array.isArray(value) && value.every(isSchema);
    case 'map of schemas':
      return isSchema(value) && typeof value === 'object' && Object.values(value as object).every(isSchema);
    case 'number or boolean':
      return typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
    case 'string or list of strings':
      return typeof value === 'string' || (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string'));
  }
}

/** A value as a message quotes it: its kind and, when short, itself. */
function described(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value);
  return `the ${typeof value} ${text.length > 40 ? `${text.slice(0, 39)}…` : text}`;
}


/**
 * The wrong keywords of every schema in `spec`: those under `components.schemas`, and every `schema`
 * of a parameter, header or media type, with the schemas inside them. A schema that is a `$ref` is
 * checked where it is defined. At most `limit` problems.
 */
export function schemaProblems(spec: unknown, limit = 50): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const seen = new Set<object>();
  const checkSchema = (schema: unknown, pointer: string): void => {
    if (problems.length >= limit || typeof schema !== 'object' || schema === null || Array.isArray(schema) || seen.has(schema)) return;
    seen.add(schema);
    if ('$ref' in schema) return;
    for (const [keyword, value] of Object.entries(schema)) {
      const kind = KEYWORDS[keyword];
      if (!kind) continue;
      const at = `${pointer}/${escapeToken(keyword)}`;
      if (!fits(value, kind)) {
        problems.push({ pointer: at, message: `\`${keyword}\` must be ${kind === 'schema' ? 'a schema' : `a ${kind}`}, got ${described(value)}`, fix: `write ${EXAMPLE[kind].replace('KEYWORD', keyword)}` });
        continue;
      }
      if (kind === 'schema') checkSchema(value, at);
      else if (kind === 'list of schemas') (value as unknown[]).forEach((item, i) => checkSchema(item, `${at}/${i}`));
      else if (kind === 'map of schemas') for (const [name, item] of Object.entries(value as object)) checkSchema(item, `${at}/${escapeToken(name)}`);
    }
  };
  // Every `schema` below the document, and the named schemas.
  const visit = (node: unknown, pointer: string, depth: number): void => {
    if (problems.length >= limit || depth > 64 || typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      const at = `${pointer}/${escapeToken(key)}`;
      if (key === 'schema' && !Array.isArray(node)) checkSchema(value, at);
      else if (key === 'schemas' && pointer === '/components' && typeof value === 'object' && value !== null) {
        for (const [name, schema] of Object.entries(value)) checkSchema(schema, `${at}/${escapeToken(name)}`);
      } else if (key !== 'examples' && key !== 'example' && key !== 'default') visit(value, at, depth + 1);
    }
  };
  visit(spec, '', 0);
  return problems;
}
