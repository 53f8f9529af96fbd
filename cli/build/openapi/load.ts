/**
 * Stage 4a, openapi: read, validate and dereference each spec with @readme/openapi-parser. Every
 * problem names the file, the line and the JSON pointer.
 */
import { refFileResolver, REF_FIX, yamlProblem } from './ref-files';
import { schemaProblems } from './schema-check';
import { specLabelProblems } from './spec-labels';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { normaliseText } from '../sources';
import { decodeUtf8 } from '../../util/utf8';
import { resolve, sep } from 'node:path';
import type { OpenAPIV3 } from 'openapi-types';
import { DocsError, type Diagnostic } from '../../util/errors';
import type { OpenApiConfig } from '../config';
import { backslashProblem, backslashRefs, danglingRefs, expansionProblem, refFix } from './refs';
import { ALIAS_BOMB, dereferenceDepthProblem, findRef, isAliasBomb, mapSource, namedPlace, readValidatorMessage, SELF_CONTAINING, selfContaining, specValue } from './spec-errors';

/** A valid spec, dereferenced (`$ref`s replaced by their targets; cycles stay as object cycles). */
export interface LoadedSpec {
  config: OpenApiConfig;
  /** The file as the writer knows it, relative to the site root, e.g. `specs/24urenloop.yaml`. */
  file: string;
  document: OpenAPIV3.Document;
  /**
   * The other files its `$ref`s named, each with its size, mtime and ctime when it was read: a build
   * with nothing to do checks them (cli/build/unchanged.ts), `docs serve` watches them.
   */
  refFiles: [path: string, stats: string][];
}

const SPEC_FIX = 'correct the spec at that place; the OpenAPI rules are at https://spec.openapis.org/oas/v3.0.3 (3.0) and https://spec.openapis.org/oas/v3.1.0 (3.1)';

/** Loads every configured spec; throws one `DocsError` listing the problems of all of them. */
export async function loadSpecs(root: string, configs: OpenApiConfig[]): Promise<LoadedSpec[]> {
  if (configs.length === 0) return [];
  const { validate, dereference } = await import('@readme/openapi-parser');
  const siteRoot = realpathSync(root);
  const problems: Diagnostic[] = [];
  const loaded: LoadedSpec[] = [];
  const placed = configs.map((config, index) => {
    const file = config.file.replace(/^\.\//, '');
    return { config, index, file, problem: specFileProblem(siteRoot, resolve(root, file), file) };
  });
  // A spec the config names wrongly is the config's error (exit 2), found before any spec is read.
  const misplaced = placed.filter(({ problem }) => problem !== undefined);
  if (misplaced.length > 0) {
    throw new DocsError('config', misplaced.map(({ index, problem }) => ({ file: 'site.config.ts', pointer: `/openapi/${index}/file`, message: problem!.message, fix: problem!.fix })));
  }
  for (const { config, file } of placed) {
    const path = resolve(root, file);
    const text = decodeUtf8(readFileSync(path), file, problems);
    if (text === undefined) continue;
    const source = mapSource(normaliseText(text));
    if (source.document.errors.length > 0) {
      for (const error of source.document.errors) {
        const place = error.linePos?.[0];
        problems.push({ file, line: place?.line, column: place?.col, ...yamlProblem(error.message) });
      }
      continue;
    }
    /** Adds a problem at `pointer` of the spec, with its line. */
    const problemAt = (pointer: string, message: string, fix: string): void => {
      const place = source.lineOf(pointer);
      problems.push({ file, line: place?.line, column: place?.column, pointer, message, fix });
    };
    let spec: Record<string, unknown> | null;
    try {
      spec = specValue(source.document) as Record<string, unknown> | null;
    } catch (error) {
      if (!isAliasBomb(error)) throw error;
      problems.push({ file, message: ALIAS_BOMB.message, fix: ALIAS_BOMB.fix });
      continue;
    }
    const loop = selfContaining(spec);
    if (loop !== undefined) {
      problemAt(loop, SELF_CONTAINING.message, SELF_CONTAINING.fix);
      continue;
    }
    if (!spec || typeof spec !== 'object' || (!('openapi' in spec) && !('swagger' in spec))) {
      problems.push({ file, line: 1, pointer: '', message: 'is not an OpenAPI document (no `openapi` version at the top)', fix: 'start the file with `openapi: 3.0.3` (or 3.1.0), then `info` and `paths`' });
      continue;
    }
    const version = versionProblem(spec);
    if (version) {
      problemAt(version.pointer, version.message, version.fix);
      continue;
    }
    const multiplied = expansionProblem(spec);
    if (multiplied) {
      problemAt(multiplied.pointer, multiplied.message, multiplied.fix);
      continue;
    }
    const dangling = danglingRefs(spec);
    if (dangling.length > 0) {
      for (const [ref, pointer] of dangling) {
        if (ref.startsWith('#/')) problemAt(pointer, `$ref "${ref}" points at nothing`, refFix(spec, ref));
        else problemAt(pointer, `$ref "${ref}" is no JSON pointer: after the # comes a path from the top of the document`, `write #/${ref.slice(1)} if that is the place meant, e.g. #/components/schemas/Team`);
      }
      continue;
    }
    const backslashed = backslashRefs(spec);
    if (backslashed.length > 0) {
      for (const [ref, pointer] of backslashed) {
        const { message, fix } = backslashProblem(ref);
        problemAt(pointer, message, fix);
      }
      continue;
    }
    // `$ref`s to other files are read relative to the file that holds them, from the site's folder
    // only and never from the network (refFileResolver); the parser is given the spec with those
    // paths made absolute, since it is handed an object, not a file.
    const refs = refFileResolver(siteRoot, path, spec);
    const options = { resolve: { external: true, file: refs.resolver, http: { canRead: false } } } as never;
    /** Reports what made the parser fail: a file a `$ref` names, the depth it follows no further, or the `$ref` it cannot resolve. */
    const parserFailed = (error: unknown): void => {
      const message = error instanceof Error ? error.message : String(error);
      const deep = dereferenceDepthProblem(message, spec);
      if (!refs.problem() && deep) problemAt(deep.pointer, deep.message, deep.fix);
      else problems.push(refs.problem() ?? { file, message: `cannot resolve a $ref: ${message}`, fix: REF_FIX });
    };
    let result: Awaited<ReturnType<typeof validate>>;
    try {
      result = await validate(refs.localised(), options);
    } catch (error) {
      parserFailed(error);
      continue;
    }
    if (!result.valid) {
      for (const error of result.errors) {
        const { text, pointer: framed } = readValidatorMessage(error.message, spec);
        // A `$ref` to nothing comes without a code frame: point at the `$ref` itself.
        const missing = /Missing \$ref pointer "([^"]+)"/.exec(text)?.[1];
        // The validator's own checks name their place in words (`/paths/a/{id}/get`).
        const named = framed === undefined && missing === undefined ? namedPlace(text, spec, source.lineOf) : {};
        const pointer = framed ?? (missing === undefined ? named.pointer : findRef(spec, missing));
        const place = pointer === undefined ? undefined : source.lineOf(pointer);
        const fix = missing === undefined ? (named.fix ?? SPEC_FIX) : refFix(spec, missing);
        problems.push({ file, line: place?.line, column: place?.column, pointer, message: missing === undefined ? text : `$ref "${missing}" points at nothing`, fix });
      }
      if (result.additionalErrors > 0) problems.push({ file, message: `has ${result.additionalErrors} more problem${result.additionalErrors === 1 ? '' : 's'} the validator reports once these are fixed` });
      continue;
    }
    // 3.1 schemas are JSON Schema, which the parser does not look into: the keywords the pages read, checked here.
    // And the names the sidebar shows, held to the length a label may have.
    const wrong = [...schemaProblems(spec), ...specLabelProblems(spec)];
    if (wrong.length > 0) {
      for (const problem of wrong) problemAt(problem.pointer, problem.message, problem.fix);
      continue;
    }
    const cycle = referenceCycle(spec);
    if (cycle) {
      problemAt(cycle[0]!, `$ref cycle with no schema in it: ${cycle.join(' → ')}`, 'give one of these a real schema (type, properties); a schema may refer to itself only from inside its properties or items');
      continue;
    }
    const fileCycle = refs.cycle();
    if (fileCycle) {
      problemAt(fileCycle.pointer, `$ref cycle with no schema in it: ${fileCycle.chain.join(' → ')}`, 'give one of these files a real schema (type, properties); a schema may refer to itself only from inside its properties or items');
      continue;
    }
    try {
      const document = (await dereference(refs.localised(), { ...(options as object), dereference: { circular: true } } as never)) as unknown as OpenAPIV3.Document;
      loaded.push({ config, file, document, refFiles: refs.files() });
    } catch (error) {
      parserFailed(error);
    }
  }
  if (problems.length > 0) throw new DocsError('content', problems);
  return loaded;
}

/**
 * Why the spec file at `path` cannot be read, or undefined when it can: it must be a file (a folder, a
 * pipe or a device is not: reading a pipe would wait for ever) inside the site's folder, symbolic links
 * resolved — as the files its `$ref`s name must be (refFileResolver): the build publishes what it reads.
 */
function specFileProblem(siteRoot: string, path: string, shown: string): { message: string; fix: string } | undefined {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return { message: `names the missing spec file ${shown}`, fix: 'check the path; it is relative to the folder of site.config.ts' };
  }
  if (!real.startsWith(siteRoot + sep)) return { message: `names a spec file outside the site's folder (${shown})`, fix: "keep the specs inside the site's folder (beside site.config.ts), e.g. specs/api.yaml" };
  const stats = statSync(real);
  if (stats.isDirectory()) return { message: `names a folder, not a spec file (${shown})`, fix: 'name the YAML or JSON file of the spec inside it, e.g. specs/api.yaml' };
  if (!stats.isFile()) return { message: `names something that is not a file (${shown}: a pipe, socket or device)`, fix: 'name a YAML or JSON file' };
  return undefined;
}

/** Why the spec's version is not one docs reads (OpenAPI 3.0 or 3.1, written as a string), if it is not. */
function versionProblem(spec: Record<string, unknown>): { pointer: string; message: string; fix: string } | undefined {
  if (!('openapi' in spec)) {
    return { pointer: '/swagger', message: `is Swagger ${String(spec.swagger)}: docs reads OpenAPI 3.0 and 3.1`, fix: 'convert it to OpenAPI 3, e.g. npx swagger2openapi specs/api.json -o specs/api.yaml, and name the converted file in site.config.ts' };
  }
  const { openapi } = spec;
  if (typeof openapi !== 'string') {
    return { pointer: '/openapi', message: `\`openapi\` is ${JSON.stringify(openapi)}, not a version string: YAML reads an unquoted 3.1 as a number`, fix: 'put the version in quotes with all three parts, e.g. openapi: "3.1.0"' };
  }
  if (!/^3\.[01]\.\d+(-.+)?$/.test(openapi)) {
    return { pointer: '/openapi', message: `says OpenAPI ${openapi}: docs reads OpenAPI 3.0 and 3.1 (a version has three parts, e.g. 3.0.3)`, fix: 'write the version the spec follows, e.g. openapi: "3.1.0" or "3.0.3"' };
  }
  return undefined;
}

/** The message and fix of a YAML parse error (`message`, the parser's). */

function referenceCycle(spec: Record<string, unknown>): string[] | undefined {
  const schemas = ((spec.components as Record<string, unknown> | undefined)?.schemas ?? {}) as Record<string, unknown>;
  const onlyRef = (name: string): string | undefined => {
    const schema = schemas[name] as Record<string, unknown> | undefined;
    const ref = schema && Object.keys(schema).length === 1 && typeof schema.$ref === 'string' ? schema.$ref : undefined;
    return ref?.startsWith('#/components/schemas/') ? ref.slice('#/components/schemas/'.length) : undefined;
  };
  for (const start of Object.keys(schemas)) {
    const chain = [start];
    for (let next = onlyRef(start); next !== undefined; next = onlyRef(next)) {
      if (next === start) return [...chain, start].map((name) => `/components/schemas/${name}`);
      if (chain.includes(next)) break;
      chain.push(next);
    }
  }
  return undefined;
}
