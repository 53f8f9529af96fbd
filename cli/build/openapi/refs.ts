/**
 * A spec's internal `$ref`s as data: where they are, what a JSON pointer names, and how far the
 * `$ref`s multiply the spec once each is replaced by its target (the OpenAPI parser's work).
 */

/** Every `$ref` below `node`, with its JSON pointer. */
export function* refsIn(node: unknown, pointer = '', seen = new Set<object>()): Generator<[ref: string, pointer: string]> {
  if (node === null || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') yield [ref, `${pointer}/$ref`];
  for (const [key, child] of Object.entries(node)) yield* refsIn(child, `${pointer}/${escapeToken(key)}`, seen);
}

/** Every object below `node` that has a `$ref`. */
export function objectsWithRefs(node: unknown, seen = new Set<object>(), found: { $ref?: unknown }[] = []): { $ref: string }[] {
  if (node === null || typeof node !== 'object' || seen.has(node)) return found as { $ref: string }[];
  seen.add(node);
  if (typeof (node as { $ref?: unknown }).$ref === 'string') found.push(node as { $ref?: unknown });
  for (const child of Object.values(node)) objectsWithRefs(child, seen, found);
  return found as { $ref: string }[];
}

/** The fix of a `$ref` to a place of `document` that holds nothing: what exists near it. */
export function refFix(document: unknown, ref: string): string {
  const hash = ref.indexOf('#');
  return `point the $ref at ${ref.slice(hash).startsWith('#/components/') ? 'a component' : 'a place'} that exists${refTargetHint(document, ref.slice(hash + 1), ref.slice(0, hash + 1))}`;
}

/**
 * The value at JSON pointer `pointer` (`/components/schemas/Team`, percent-escapes allowed) of `value`;
 * `''` is `value` itself; undefined when it names nothing. Each token must be an own key of its object
 * (an index of its list): `node[token]` would find `__proto__`, `constructor` or `toString` in every
 * object, and a list's `length`, which no spec wrote.
 */
export function valueAt(value: unknown, pointer: string): unknown {
  let node = value;
  for (const token of pointer.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    const key = pointerToken(token);
    if (Array.isArray(node) ? !/^(0|[1-9]\d*)$/.test(key) || Number(key) >= node.length : !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * The `$ref`s of `spec` to a place in the spec itself (`#/components/schemas/Team`) that holds
 * nothing, each with its own JSON pointer. Found here, not left to the OpenAPI parser: it looks each
 * name up as `node[name]`, so a `$ref` to `#/components/schemas/__proto__` found Object.prototype
 * (shown as "any") and one to `constructor` a function (an error with no place).
 */
export function danglingRefs(spec: unknown): [ref: string, pointer: string][] {
  // `#components` or `#Team` is no JSON pointer (those start with `/`): the parser resolved it to nothing, and the schema showed as `#`.
  return [...refsIn(spec)].filter(([ref]) => ref.startsWith('#') && ref !== '#' && (!ref.startsWith('#/') || valueAt(spec, ref.slice(1)) === undefined));
}

/**
 * The `$ref`s below `document` whose path (before any `#`) holds a backslash (`..\\schemas\\team.yaml`,
 * as a Windows path is written), each with its JSON pointer. A `$ref` is a URL: a backslash is no
 * separator there, and the parser's reading of one names a file nobody wrote.
 */
export function backslashRefs(document: unknown): [ref: string, pointer: string][] {
  // Escaped (`%5C`) it is even less a separator, and the parser read it as one all the same.
  return [...refsIn(document)].filter(([ref]) => /\\|%5c/i.test(ref.split('#')[0]!));
}

/** The problem of a `$ref` with a backslash in its path (backslashRefs), with the `$ref` written with slashes as its fix. */
export function backslashProblem(ref: string): { message: string; fix: string } {
  const hash = ref.indexOf('#');
  const path = hash === -1 ? ref : ref.slice(0, hash);
  // `C:\schemas\team.yaml` written with slashes is still a path on one machine (and `c:` reads as a URL's scheme).
  if (/^[a-z]:[\\/]/i.test(path)) return { message: `$ref "${ref}" is a Windows path from a drive: a $ref names a file by its path from the file that holds it`, fix: `write the path from the spec's folder with slashes, e.g. ./schemas/${path.split(/[\\/]/).pop()}${hash === -1 ? '' : ref.slice(hash)}` };
  return { message: `$ref "${ref}" separates folders with a backslash: a $ref is a URL, whose folders are separated by /`, fix: `write it with slashes: ${path.replace(/(?:\\|%5c)+/gi, '/')}${hash === -1 ? '' : ref.slice(hash)}` };
}

/**
 * `, e.g. one of: #/components/schemas/A, …` — what the deepest place on `pointer` that exists in
 * `document` holds, each written after `prefix` (`#`, `./team.yaml#`): the fix of a `$ref` that
 * points at nothing. Empty when that place holds nothing to name.
 */
export function refTargetHint(document: unknown, pointer: string, prefix: string): string {
  const tokens = pointer.split('/').slice(1);
  for (let held = tokens.length - 1; held >= 0; held--) {
    const parent = tokens.slice(0, held).map((token) => `/${token}`).join('');
    const node = valueAt(document, parent);
    if (node === undefined) continue;
    const keys = node !== null && typeof node === 'object' ? Object.keys(node) : [];
    const shown = keys.slice(0, HINTED).map((key) => `${prefix}${parent}/${escapeToken(key)}`);
    return keys.length === 0 ? '' : `, e.g. one of: ${shown.join(', ')}${keys.length > HINTED ? ` (and ${keys.length - HINTED} more)` : ''}`;
  }
  return '';
}

/** The most names a `$ref`'s fix offers. */
const HINTED = 12;

/** A key as a JSON pointer token: `~` and `/` escaped (`~0`, `~1`). */
export function escapeToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A JSON pointer token as a key: percent-escapes decoded where they are well formed (a key "100%" is taken as written), `~1` and `~0` undone. */
export function pointerToken(token: string): string {
  let decoded = token;
  try {
    decoded = decodeURIComponent(token);
  } catch {
    // A bare `%`: taken as written.
  }
  return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * The most values a spec may hold once its `$ref`s are replaced by their targets. The OpenAPI parser
 * dereferences and validates every place in full: components that each use the next four times,
 * eleven levels deep (some 29 million values), take it about 15 s; twelve levels (116 million) took
 * it more than a minute, thirteen four minutes — a build that seems to hang. Ordinary specs, however
 * large, stay far below: the portal's three expand to a few tens of thousands.
 */
const MAX_EXPANDED = 50_000_000;

/**
 * The problem of a spec whose internal `$ref`s expand past `MAX_EXPANDED` values, at the first place
 * of the `$ref` whose target expands the most (the top of the chain that multiplies); undefined for
 * any other spec. Counted without expanding: each object's expanded size once, a cycle as one value
 * (the parser cuts them).
 */
export function expansionProblem(spec: Record<string, unknown>): { pointer: string; message: string; fix: string } | undefined {
  const sizes = new Map<object, number>();
  const open = new Set<object>();
  const size = (node: unknown): number => {
    if (node === null || typeof node !== 'object') return 1;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    // A cycle, through properties or through `$ref`s alone (`A: {$ref: A}`), counts once.
    if (open.has(node)) return 1;
    open.add(node);
    const ref = (node as { $ref?: unknown }).$ref;
    let total = 1;
    if (typeof ref === 'string' && ref.startsWith('#/')) total = size(valueAt(spec, ref.slice(1)));
    else for (const child of Object.values(node)) total = Math.min(total + size(child), Number.MAX_SAFE_INTEGER);
    open.delete(node);
    sizes.set(node, total);
    return total;
  };
  if (size(spec) <= MAX_EXPANDED) return undefined;
  let largest: { ref: string; pointer: string; size: number } | undefined;
  for (const [ref, pointer] of refsIn(spec)) {
    if (!ref.startsWith('#/')) continue;
    const expanded = size(valueAt(spec, ref.slice(1)));
    if (!largest || expanded > largest.size) largest = { ref, pointer, size: expanded };
  }
  if (!largest) return undefined;
  return {
    pointer: largest.pointer,
    message: `its $refs expand to more than ${MAX_EXPANDED.toLocaleString('en-GB')} values (${largest.ref} alone to ${largest.size.toLocaleString('en-GB')}): components that each use the next several times multiply at every level`,
    fix: 'reuse a component at fewer levels (give a level its own small schema instead of a $ref to one that fans out again), or split the spec; the OpenAPI parser dereferences every place in full',
  };
}
