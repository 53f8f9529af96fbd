/**
 * Places in a spec file: the validator reports problems against the spec as pretty-printed JSON (a
 * code frame with a line number); these helpers turn that line into a JSON pointer, and a pointer into
 * the line of the YAML (or JSON) source the writer edits.
 */
import { LineCounter, parseDocument, isMap, isNode, isSeq, type Document } from 'yaml';
import { escapeToken, pointerToken } from './refs';

/**
 * The JSON pointer of every line of `JSON.stringify(value, null, 2)`, index 0 being line 1: the value
 * that line opens, holds or closes.
 */
export function pointersByJsonLine(value: unknown): string[] {
  const lines: string[] = [''];
  const visit = (node: unknown, pointer: string): void => {
    if (Array.isArray(node)) {
      if (node.length === 0) return;
      node.forEach((item, i) => {
        lines.push(`${pointer}/${i}`);
        visit(item, `${pointer}/${i}`);
      });
      lines.push(pointer);
    } else if (node !== null && typeof node === 'object') {
      const keys = Object.keys(node).filter((key) => {
        const child = (node as Record<string, unknown>)[key];
        return child !== undefined && typeof child !== 'function';
      });
      if (keys.length === 0) return;
      for (const key of keys) {
        const child = `${pointer}/${escapeToken(key)}`;
        lines.push(child);
        visit((node as Record<string, unknown>)[key], child);
      }
      lines.push(pointer);
    }
  };
  visit(value, '');
  return lines;
}

/** The JSON pointer of the first `$ref` in `spec` whose value is `target`. */
export function findRef(spec: unknown, target: string): string | undefined {
  const visit = (node: unknown, pointer: string): string | undefined => {
    if (node === null || typeof node !== 'object') return undefined;
    if ((node as { $ref?: unknown }).$ref === target) return `${pointer}/$ref`;
    for (const [key, child] of Object.entries(node)) {
      const found = visit(child, `${pointer}/${escapeToken(key)}`);
      if (found) return found;
    }
    return undefined;
  };
  return visit(spec, '');
}

/** The problem's first line and the JSON pointer of its code frame's marked line, when it has one. */
export function readValidatorMessage(message: string, spec: unknown): { text: string; pointer?: string } {
  const first = message.split('\n')[0]!.trim();
  // better-ajv-errors prefixes the ajv keyword in capitals: "REQUIRED must have …".
  const text = first.replace(/^[A-Z_]+\s+(?=[a-z])/, '');
  const marked = /^>\s*(\d+)\s*\|/m.exec(message);
  if (!marked) return { text };
  return { text, pointer: pointersByJsonLine(spec)[Number(marked[1]) - 1] };
}

/** A parsed YAML/JSON source that can tell the line of a JSON pointer. */
export interface SourceMap {
  document: Document;
  lineOf: (pointer: string) => { line: number; column: number } | undefined;
}

/** Parses the spec's text, keeping positions. */
export function mapSource(text: string): SourceMap {
  const counter = new LineCounter();
  const document = parseDocument(text, { lineCounter: counter, keepSourceTokens: false, uniqueKeys: false });
  return {
    document,
    lineOf: (pointer) => {
      const tokens = pointer
        .split('/')
        .slice(1)
        .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
      // Walk down as far as the path exists: a missing key is reported at its parent. A token is a
      // list index only inside a list (`'200'` is a key of `responses`).
      let node: unknown = document.contents;
      for (const token of tokens) {
        const next = isSeq(node) ? node.get(Number(token), true) : isMap(node) ? node.get(token, true) : undefined;
        if (!isNode(next)) break;
        node = next;
      }
      if (!isNode(node) || !node.range) return undefined;
      const { line, col } = counter.linePos(node.range[0]);
      return { line, column: col };
    },
  };
}

/**
 * How many times a spec's YAML aliases may be expanded (the `yaml` package's own guard against
 * "billion laughs" is 100, which ordinary reuse of one `&anchor` in many places exceeds).
 */
export const MAX_ALIAS_COUNT = 10_000;

/** What a parse of `document` to plain data reports when its aliases expand past MAX_ALIAS_COUNT. */
export const ALIAS_BOMB = {
  message: `is not valid YAML: its aliases (*name) expand to more than ${MAX_ALIAS_COUNT} copies of their anchors (&name), which looks like an alias bomb`,
  fix: 'use anchors and aliases for ordinary reuse only, not aliases of lists of aliases nested many levels deep; for parts of the API used in many places, use a $ref to a component',
};

/** The document as plain data, with the alias limit raised to MAX_ALIAS_COUNT; throws past it. */
export function specValue(document: Document): unknown {
  return document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
}

/** True when `error` is the `yaml` package's refusal of too many alias expansions. */
export function isAliasBomb(error: unknown): boolean {
  return error instanceof Error && /alias count/i.test(error.message);
}

/**
 * The JSON pointer of the first place in `value` that holds one of its own ancestors: a YAML alias
 * inside its own anchor (`&x {self: *x}`), the only way data parsed from a file can contain itself.
 */
export function selfContaining(value: unknown): string | undefined {
  const open = new Set<object>();
  const done = new Set<object>();
  const visit = (node: unknown, pointer: string): string | undefined => {
    if (node === null || typeof node !== 'object' || done.has(node)) return undefined;
    if (open.has(node)) return pointer;
    open.add(node);
    for (const [key, child] of Object.entries(node)) {
      const found = visit(child, `${pointer}/${escapeToken(key)}`);
      if (found !== undefined) return found;
    }
    open.delete(node);
    done.add(node);
    return undefined;
  };
  return visit(value, '');
}

/** The problem to report for a value that contains itself. */
export const SELF_CONTAINING = {
  message: 'has a YAML alias inside its own anchor: the value at this place contains itself, so it never ends',
  fix: 'write the value out instead of the alias (*name) that refers back to its own anchor (&name); a schema that contains itself should use $ref: "#/components/schemas/Name" instead',
};

/** What a YAML or JSON file nested past what the parser's recursion can hold is reported as (the `yaml` package's "Maximum call stack size exceeded"). */
export const TOO_DEEP_TO_READ = {
  message: 'nests too deeply to be read: hundreds of objects or lists inside one another at this place',
  fix: 'real schemas nest a few dozen levels: move inner schemas to components/schemas and refer to them with $ref, or, for data that contains itself, let a schema refer to itself',
};

/** True when `message` is a parser's report of a stack overflow (a file nested too deeply). */
export function isTooDeep(message: string): boolean {
  return /maximum call stack size exceeded/i.test(message);
}

/**
 * The problem of the OpenAPI parser's refusal to follow a spec past its depth limit ("Maximum
 * dereference depth (500) exceeded at #/…", and advice about an option nobody here can set), at the
 * part of that place the spec itself holds: the `$ref` it followed, or, for nesting written out in
 * full, the first 16 keys of it.
 */
export function dereferenceDepthProblem(message: string, spec: unknown): { pointer: string; message: string; fix: string } | undefined {
  const match = /Maximum dereference depth \((\d+)\) exceeded at #?(\S*)/.exec(message);
  if (!match) return undefined;
  const tokens = match[2]!.split('/').slice(1);
  let node = spec;
  let held = 0;
  for (const token of tokens) {
    if (node === null || typeof node !== 'object' || held === 16) break;
    const key = pointerToken(token);
    if (!Object.hasOwn(node, key)) break;
    node = (node as Record<string, unknown>)[key];
    held++;
  }
  const throughRefs = held < tokens.length && held < 16;
  return {
    pointer: tokens.length === 0 ? '' : `/${tokens.slice(0, held).join('/')}`,
    message: `nests more than ${match[1]} keys deep from here${throughRefs ? ' once its $refs are followed' : ''}: the OpenAPI parser follows no deeper`,
    fix: throughRefs ? 'a chain of hundreds of $refs, each a level deeper than the last: shorten it, or where the data contains itself let one schema refer to itself (docs shows it with the recursion cut)' : TOO_DEEP_TO_READ.fix,
  };
}

/** The validator's checks that name their place in words, and what to do about each. */
const NAMED_FIXES: [RegExp, string][] = [
  [/is duplicated and must be made unique/, 'give each operation an operationId of its own (it names the operation\'s page)'],
  [/is missing path parameter\(s\)/, 'declare each `{name}` of the path under the operation\'s (or the path\'s) `parameters`, with `in: path` and `required: true`, or take it out of the path'],
  [/has a path parameter named .* but there is no corresponding/, 'put `{name}` in the path string, or declare the parameter `in: query` (or remove it)'],
  [/has an invalid name/, 'rename the component to letters, digits, `.`, `-` and `_`, and its `$ref`s with it'],
];

/**
 * Where a problem is that the validator's own checks name in words instead of a code frame: an
 * operation or a path (`/paths/a/{id}/get`, the path as written, not escaped as a JSON pointer is), a
 * component (`/components/schemas/A/b`), a duplicated operationId (its second use). The JSON pointer,
 * and the fix for that check.
 */
export function namedPlace(text: string, spec: unknown, lineOf?: (pointer: string) => { line: number } | undefined): { pointer?: string; fix?: string } {
  const fix = NAMED_FIXES.find(([pattern]) => pattern.test(text))?.[1];
  const doc = (spec ?? {}) as { paths?: Record<string, Record<string, { operationId?: unknown } | undefined> | undefined>; components?: Record<string, Record<string, unknown> | undefined> };
  const paths = Object.keys(doc.paths ?? {}).sort((a, b) => b.length - a.length);
  for (const [, quoted] of text.matchAll(/`([^`]+)`/g)) {
    if (quoted!.startsWith('/paths/')) {
      const rest = quoted!.slice('/paths'.length);
      for (const key of paths) {
        if (rest === key) return { pointer: `/paths/${escapeToken(key)}`, fix };
        const method = rest.startsWith(`${key}/`) ? rest.slice(key.length + 1) : undefined;
        if (method !== undefined && doc.paths?.[key]?.[method] !== undefined) return { pointer: `/paths/${escapeToken(key)}/${escapeToken(method)}`, fix };
      }
    }
    if (quoted!.startsWith('/components/')) {
      const [type, ...name] = quoted!.slice('/components/'.length).split('/');
      if (doc.components?.[type!]?.[name.join('/')] !== undefined) return { pointer: `/components/${escapeToken(type!)}/${escapeToken(name.join('/'))}`, fix };
    }
  }
  const duplicated = /The operationId `([^`]+)` is duplicated/.exec(text)?.[1];
  if (duplicated !== undefined) {
    const uses = Object.entries(doc.paths ?? {}).flatMap(([key, item]) => Object.entries(item ?? {}).flatMap(([method, operation]) => (operation?.operationId === duplicated ? [`/paths/${escapeToken(key)}/${escapeToken(method)}/operationId`] : [])));
    const first = uses[0] && lineOf?.(uses[0]);
    if (uses.length > 1) return { pointer: uses[1], fix: `${fix}; the first use is at ${first ? `line ${first.line}, ` : ''}${uses[0]}` };
  }
  return { fix };
}
