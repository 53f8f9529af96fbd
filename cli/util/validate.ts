/**
 * A tiny structural validator for config and frontmatter: it reports every problem with the key path
 * (`navbar[2].to`), the bad value quoted, and a likely fix for misspelt keys.
 */
import { suggest } from './errors';

/** The shape a value must have. */
export type Shape =
  | { kind: 'string'; optional?: boolean; nonEmpty?: boolean; doc?: string }
  | { kind: 'number'; optional?: boolean; integer?: boolean; doc?: string }
  | { kind: 'boolean'; optional?: boolean; doc?: string }
  | { kind: 'array'; of: Shape; optional?: boolean; nonEmpty?: boolean; doc?: string }
  | { kind: 'object'; fields: Record<string, Shape>; optional?: boolean; doc?: string }
  | { kind: 'union'; of: Shape[]; optional?: boolean; doc?: string }
  /** Any value: a key another tool reads (Docusaurus) that is accepted and changes nothing here. */
  | { kind: 'any'; optional?: boolean; doc?: string };

/** One validation problem. */
export interface ShapeProblem {
  /** Key path, e.g. `navbar[2].to`; empty for the root. */
  path: string;
  message: string;
  fix?: string;
}

/** Shorthands to declare shapes. */
export const s = {
  string: (doc?: string): Shape => ({ kind: 'string', nonEmpty: true, doc }),
  number: (doc?: string): Shape => ({ kind: 'number', doc }),
  integer: (doc?: string): Shape => ({ kind: 'number', integer: true, doc }),
  boolean: (doc?: string): Shape => ({ kind: 'boolean', doc }),
  array: (of: Shape, doc?: string): Shape => ({ kind: 'array', of, doc }),
  nonEmptyArray: (of: Shape, doc?: string): Shape => ({ kind: 'array', of, doc, nonEmpty: true }),
  object: (fields: Record<string, Shape>, doc?: string): Shape => ({ kind: 'object', fields, doc }),
  union: (...of: Shape[]): Shape => ({ kind: 'union', of }),
  optional: (shape: Shape): Shape => ({ ...shape, optional: true }),
  /** An optional key of any value, accepted and left out (listed among the known keys all the same). */
  ignored: (): Shape => ({ kind: 'any', optional: true }),
};

/** Checks `value` against `shape`, returning every problem found (empty when valid). */
export function validateShape(value: unknown, shape: Shape, path = ''): ShapeProblem[] {
  const problems: ShapeProblem[] = [];
  check(value, shape, path, problems);
  return problems;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  if (typeof value === 'object') return 'an object';
  // YAML's `1e400` and `.inf` read as Infinity, `.nan` as NaN: numbers, but no place in an order.
  if (typeof value === 'number' && !Number.isFinite(value)) return Number.isNaN(value) ? 'NaN (YAML .nan: no number at all)' : `${String(value)} (a number too large to hold)`;
  return `${typeof value} ${String(value)}`;
}

function expected(shape: Shape): string {
  switch (shape.kind) {
    case 'string':
      return shape.nonEmpty ? 'a non-empty string' : 'a string';
    case 'number':
      return shape.integer ? 'an integer' : 'a number';
    case 'boolean':
      return 'true or false';
    case 'array':
      return 'an array';
    case 'object':
      return 'an object';
    case 'union':
      return shape.of.map(expected).join(' or ');
    case 'any':
      return 'any value';
  }
}

function check(value: unknown, shape: Shape, path: string, problems: ShapeProblem[]): void {
  const where = path || '(root)';
  if (value === undefined) {
    if (!shape.optional) problems.push({ path: where, message: `is missing (expected ${expected(shape)})`, fix: shape.doc ? `add \`${path}\`: ${shape.doc}` : `add \`${path}\`` });
    return;
  }
  const mismatch = (): void => {
    // A number or a boolean where text is expected is the usual slip (`title: 42`): YAML reads it unquoted as such.
    const quote = shape.kind === 'string' && (typeof value === 'number' || typeof value === 'boolean') ? `, in quotes: "${String(value)}"` : '';
    problems.push({ path: where, message: `must be ${expected(shape)}, got ${describe(value)}`, fix: `write ${expected(shape)} there${quote}${shape.doc ? ` (${shape.doc})` : ''}` });
  };
  switch (shape.kind) {
    case 'string':
      if (typeof value !== 'string' || (shape.nonEmpty && value.trim() === '')) mismatch();
      return;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value) || (shape.integer && !Number.isInteger(value))) mismatch();
      return;
    case 'boolean':
      if (typeof value !== 'boolean') mismatch();
      return;
    case 'array':
      if (!Array.isArray(value)) return mismatch();
      if (shape.nonEmpty && value.length === 0) problems.push({ path: where, message: 'must not be empty' });
      value.forEach((item, i) => check(item, shape.of, `${path}[${i}]`, problems));
      return;
    case 'union':
      if (!shape.of.some((option) => validateShape(value, option, path).length === 0)) mismatch();
      return;
    case 'any':
      return;
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return mismatch();
      const record = value as Record<string, unknown>;
      const known = Object.keys(shape.fields);
      for (const key of Object.keys(record)) {
        if (known.includes(key)) continue;
        const guess = suggest(key, known);
        problems.push({
          path: path ? `${path}.${key}` : key,
          message: 'is not a known key',
          fix: guess ? `did you mean \`${guess}\`?` : `known keys: ${known.join(', ')}`,
        });
      }
      for (const key of known) check(record[key], shape.fields[key]!, path ? `${path}.${key}` : key, problems);
      return;
    }
  }
}
