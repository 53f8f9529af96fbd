/**
 * The files a spec's `$ref`s name, read for the OpenAPI parser (stage 4a, load.ts): from the site's
 * folder only, never from the network, each checked before it is read, every problem at the `$ref`
 * that named the file (its file, line and JSON pointer).
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostic } from '../../util/errors';
import { normaliseText } from '../sources';
import { statsKey } from '../unchanged';
import { backslashProblem, backslashRefs, objectsWithRefs, refFix, refsIn, valueAt } from './refs';
import { ALIAS_BOMB, isAliasBomb, isTooDeep, mapSource, SELF_CONTAINING, selfContaining, specValue, TOO_DEEP_TO_READ } from './spec-errors';

/** The problem of a YAML file that does not parse. */
export function yamlProblem(message: string): { message: string; fix: string } {
  return isTooDeep(message) ? TOO_DEEP_TO_READ : { message: `is not valid YAML: ${message.split('\n')[0]}`, fix: 'fix the YAML syntax (indentation, quotes, colons)' };
}

export const REF_FIX = 'point every $ref at an existing component, e.g. #/components/schemas/Team, or at a file beside the spec, e.g. ./schemas/team.yaml';

/** A `$ref`'s path with its percent-escapes decoded; as written when they are malformed. */
function decodePath(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

/** A `$ref` that names another file or a URL rather than a place in its own document. */
const external = (ref: unknown): ref is string => typeof ref === 'string' && ref !== '' && !ref.startsWith('#');
/** A `$ref` with a scheme (`https://…`, `file:…`), not a path. */
const withScheme = (ref: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(ref) && !/^[a-z]:[\\/]/i.test(ref);

/** The file (an absolute path) or URL an external `$ref` of the file `holder` names: a `file:` URL is its path, as the parser asks for it. */
function namedBy(ref: string, holder: string): string {
  const target = ref.split('#')[0]!;
  if (/^file:/i.test(target)) {
    try {
      return fileURLToPath(target);
    } catch {
      return target;
    }
  }
  return withScheme(ref) ? target : resolve(dirname(holder), decodePath(target));
}

/**
 * The `$id` nearest above the `$ref` at `pointer` in `document`, when it is a URL: the parser reads the
 * `$ref` against it (JSON Schema's base URI), so a path written beside the file becomes a URL.
 */
function idAbove(document: unknown, pointer: string): { id: string; pointer: string } | undefined {
  const tokens = pointer.split('/').slice(1, -1);
  let found: { id: string; pointer: string } | undefined;
  for (let i = 0; i <= tokens.length; i++) {
    const at = tokens.slice(0, i).map((token) => `/${token}`).join('');
    const id = (valueAt(document, at) as { $id?: unknown } | undefined)?.$id;
    if (typeof id === 'string' && withScheme(id) && !/^file:/i.test(id)) found = { id, pointer: `${at}/$id` };
  }
  return found;
}

/**
 * What lets a spec's `$ref`s name other files (`$ref: ./schemas/team.yaml#/Team`), as OpenAPI tools
 * allow, without letting a spec read what it should not: a file is read only when it is inside the
 * site's folder (symbolic links resolved), never a URL (a build reads no network: it must give the
 * same output offline and in CI, and must not fetch what a spec names). Each refusal, missing file or
 * unreadable YAML becomes one problem naming the file and line of the `$ref` that asked for it.
 */
export function refFileResolver(siteRoot: string, specPath: string, spec: Record<string, unknown>) {
  const display = (path: string): string => relative(siteRoot, path).split(sep).join('/');
  // Files read so far (their text, for finding a failed $ref's line), and the first problem met.
  const read = new Map<string, { text: string; value: unknown; stats: string }>();
  let problem: Diagnostic | undefined;
  /** The spec and each file read so far: its path, its data, and its text (the spec's read when asked for). */
  const holders = (): [path: string, document: unknown, text: () => string][] => [[specPath, spec, () => readFileSync(specPath, 'utf8')], ...[...read].map(([path, file]): [string, unknown, () => string] => [path, file.value, () => file.text])];
  // The file whose `$ref` asks for `target` (an absolute path or a URL), and that $ref's line; with the
  // `$id` above it (and that $id's line) when the parser read a path against it, making it a URL.
  const askedBy = (target: string): { file: string; ref: string; line?: number; pointer?: string; id?: { id: string; line?: number } } => {
    for (const [holder, document, text] of holders()) {
      for (const [ref, pointer] of refsIn(document)) {
        if (!external(ref)) continue;
        const named = namedBy(ref, holder);
        if (named !== target) continue;
        const place = mapSource(normaliseText(text())).lineOf(pointer);
        return { file: display(holder), ref, line: place?.line, pointer };
      }
    }
    if (withScheme(target)) {
      for (const [holder, document, text] of holders()) {
        for (const [ref, pointer] of refsIn(document)) {
          if (!external(ref) || withScheme(ref)) continue;
          const path = decodePath(ref.split('#')[0]!).replace(/^(\.\/)+/, '');
          const above = idAbove(document, pointer);
          if (!above || path === '' || !decodePath(target.split('#')[0]!).endsWith(`/${path}`)) continue;
          const source = mapSource(normaliseText(text()));
          return { file: display(holder), ref, line: source.lineOf(pointer)?.line, pointer, id: { id: above.id, line: source.lineOf(above.pointer)?.line } };
        }
      }
    }
    return { file: display(specPath), ref: target };
  };
  /** The problem of `target`, at the `$ref` that asked for it; `message` and `fix` may say more of that $ref (the `$id` above it). */
  type AskedBy = ReturnType<typeof askedBy>;
  const refuse = (target: string, message: (ref: string, at: AskedBy) => string, fix: string | ((at: AskedBy) => string)): Error => {
    const at = askedBy(target);
    problem ??= { file: at.file, line: at.line, pointer: at.pointer, message: message(at.ref, at), fix: typeof fix === 'string' ? fix : fix(at) };
    return new Error(problem.message);
  };
  /**
   * The first `$ref` — of the spec or a file read so far — into the spec or a file read so far whose
   * place holds nothing there, own keys only (see danglingRefs). Checked each time a file is read: a
   * `$ref` into the new file, or from it back into one read before.
   */
  const danglingAmong = (): Diagnostic | undefined => {
    const documents = new Map(holders().map(([holder, document]) => [holder, document]));
    for (const [holder, document, text] of holders()) {
      for (const [ref, pointer] of refsIn(document)) {
        const hash = ref.indexOf('#');
        if (hash === -1 || !ref.startsWith('/', hash + 1) || withScheme(ref)) continue;
        const target = hash === 0 ? holder : resolve(dirname(holder), decodePath(ref.slice(0, hash)));
        // The spec's own `#/…` $refs are danglingRefs', checked before the parser runs; a file not read yet is checked once it is.
        if ((hash === 0 && holder === specPath) || !documents.has(target)) continue;
        const value = documents.get(target);
        if (valueAt(value, ref.slice(hash + 1)) !== undefined) continue;
        const place = mapSource(normaliseText(text())).lineOf(pointer);
        return { file: display(holder), line: place?.line, column: place?.column, pointer, message: `$ref "${ref}" points at nothing in ${display(target)}`, fix: refFix(value, ref) };
      }
    }
    return undefined;
  };
  const resolver = {
    order: 1,
    canRead: true,
    read(file: { url: string }): string {
      const url = file.url;
      if (withScheme(url) && !url.startsWith('file:')) {
        throw refuse(
          url,
          (ref, at) => (at.id ? `$ref "${ref}" is read against the $id "${at.id.id}" above it, which makes it a URL: a build never reads the network` : `$ref "${ref}" names a URL: a build never reads the network`),
          (at) => (at.id ? `remove that $id${at.id.line ? ` (line ${at.id.line})` : ''}: a $ref is then read beside the file that holds it` : 'save the file in the site\'s folder (beside the spec) and refer to it by its path, e.g. ./schemas/team.yaml'),
        );
      }
      const path = url.startsWith('file:') ? fileURLToPath(url) : url;
      // The validator and the dereferencer each ask for every file: read and check it once.
      const known = read.get(path);
      if (known) return known.text;
      let real: string;
      try {
        real = realpathSync(path);
      } catch {
        throw refuse(path, (ref) => `$ref "${ref}" names a file that does not exist (${display(path)})`, 'check the path: a $ref is relative to the file that holds it');
      }
      if (!real.startsWith(siteRoot + sep)) {
        throw refuse(path, (ref) => `$ref "${ref}" names a file outside the site's folder`, 'keep the specs and the files they refer to inside the site\'s folder (beside site.config.ts)');
      }
      const stats = statSync(real);
      if (!stats.isFile()) throw refuse(path, (ref) => `$ref "${ref}" names ${stats.isDirectory() ? 'a folder' : 'a pipe, a socket or a device'}, not a file`, 'name a YAML or JSON file');
      const text = normaliseText(readFileSync(real, 'utf8'));
      const source = mapSource(text);
      const error = source.document.errors[0];
      if (error) {
        // A file that is not meant to be YAML (a page, a README): the $ref that names it is what to fix.
        if (!/\.(ya?ml|json)$/i.test(real)) {
          throw refuse(path, (ref) => `$ref "${ref}" names ${display(real)}, which is not a YAML or JSON file`, 'a $ref names a YAML or JSON file, or a place in one, e.g. ./schemas/team.yaml#/Team');
        }
        const place = error.linePos?.[0];
        problem ??= { file: display(real), line: place?.line, column: place?.col, ...yamlProblem(error.message) };
        throw new Error(problem.message);
      }
      // Aliases are checked here as in the spec: an alias bomb or a value that contains itself
      // would otherwise exhaust the memory or the stack of whatever walks the file's data.
      let value: unknown;
      try {
        value = specValue(source.document);
      } catch (error) {
        if (!isAliasBomb(error)) throw error;
        problem ??= { file: display(real), message: ALIAS_BOMB.message, fix: ALIAS_BOMB.fix };
        throw new Error(problem.message);
      }
      const loop = selfContaining(value);
      if (loop !== undefined) {
        const place = source.lineOf(loop);
        problem ??= { file: display(real), line: place?.line, column: place?.column, pointer: loop, message: SELF_CONTAINING.message, fix: SELF_CONTAINING.fix };
        throw new Error(problem.message);
      }
      const [backslashed] = backslashRefs(value);
      if (backslashed) {
        const [ref, pointer] = backslashed;
        const place = source.lineOf(pointer);
        problem ??= { file: display(real), line: place?.line, column: place?.column, pointer, ...backslashProblem(ref) };
        throw new Error(problem.message);
      }
      read.set(path, { text, value, stats: statsKey(stats) });
      const dangling = danglingAmong();
      if (dangling) {
        problem ??= dangling;
        throw new Error(problem.message);
      }
      return text;
    },
  };
  return {
    resolver,
    /** A copy of the spec whose file `$ref`s are absolute paths (the parser resolves them against nothing else). */
    localised: (): never => {
      const copy = structuredClone(spec);
      for (const node of objectsWithRefs(copy)) {
        const ref = node.$ref;
        if (external(ref) && !withScheme(ref) && !isAbsolute(ref)) {
          const [target, fragment] = [ref.split('#')[0]!, ref.includes('#') ? ref.slice(ref.indexOf('#')) : ''];
          node.$ref = target === '' ? fragment : resolve(dirname(specPath), decodePath(target)) + fragment;
        }
      }
      return copy as never;
    },
    problem: (): Diagnostic | undefined => problem,
    /**
     * A chain of `$ref`s that starts at a `$ref` of the spec to another file and comes back to where
     * it was with nothing but `$ref`s on the way (a.yaml: `$ref: ./b.yaml`, b.yaml: `$ref: ./a.yaml`):
     * the same problem as referenceCycle finds inside one file. Read after the validator has read the files.
     */
    cycle: (): { pointer: string; chain: string[] } | undefined => {
      const fileValue = (path: string): unknown => (path === specPath ? spec : read.get(path)?.value);
      const onlyRef = (node: unknown): string | undefined =>
        node !== null && typeof node === 'object' && !Array.isArray(node) && Object.keys(node).length === 1 && typeof (node as { $ref?: unknown }).$ref === 'string' ? (node as { $ref: string }).$ref : undefined;
      const target = (holder: string, ref: string): [path: string, fragment: string] | undefined => {
        if (withScheme(ref)) return undefined;
        const [path, fragment] = [ref.split('#')[0]!, ref.includes('#') ? ref.slice(ref.indexOf('#') + 1) : ''];
        return [path === '' ? holder : resolve(dirname(holder), decodePath(path)), fragment];
      };
      for (const [ref, pointer] of refsIn(spec)) {
        // Cycles inside the spec alone are referenceCycle's.
        if (!external(ref)) continue;
        const chain: string[] = [];
        const seen = new Set<string>();
        for (let next = target(specPath, ref); next !== undefined; ) {
          const key = `${next[0]}#${next[1]}`;
          const name = `${display(next[0])}${next[1] ? `#${next[1]}` : ''}`;
          if (seen.has(key)) return { pointer, chain: [...chain, name] };
          seen.add(key);
          chain.push(name);
          const further = onlyRef(valueAt(fileValue(next[0]), next[1]));
          next = further === undefined ? undefined : target(next[0], further);
        }
      }
      return undefined;
    },
    files: (): [string, string][] => [...read].map(([path, { stats }]) => [path, stats]),
  };
}

/**
 * A chain of component schemas that are nothing but `$ref`s to each other (A → B → A): no structure
 * anywhere, so no page could show it. Schemas that refer to themselves from inside properties or
 * items are recursive data, and fine.
 */
