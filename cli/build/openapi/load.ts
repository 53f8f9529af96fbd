/**
 * Stage 4a, openapi: read, validate and dereference each spec with @readme/openapi-parser. Every
 * problem names the file, the line and the JSON pointer.
 */
import { existsSync, readFileSync } from 'node:fs';
import { normaliseText } from '../sources';
import { join } from 'node:path';
import type { OpenAPIV3 } from 'openapi-types';
import { DocsError, type Diagnostic } from '../../util/errors';
import type { OpenApiConfig } from '../config';
import { findRef, mapSource, readValidatorMessage } from './spec-errors';

/** A valid spec, dereferenced (`$ref`s replaced by their targets; cycles stay as object cycles). */
export interface LoadedSpec {
  config: OpenApiConfig;
  /** The file as the writer knows it, relative to the site root, e.g. `specs/24urenloop.yaml`. */
  file: string;
  document: OpenAPIV3.Document;
}

const SPEC_FIX = 'correct the spec at that place; the OpenAPI rules are at https://spec.openapis.org/oas/v3.0.3 (3.0) and https://spec.openapis.org/oas/v3.1.0 (3.1)';

/** Loads every configured spec; throws one `DocsError` listing the problems of all of them. */
export async function loadSpecs(root: string, configs: OpenApiConfig[]): Promise<LoadedSpec[]> {
  if (configs.length === 0) return [];
  const { validate, dereference } = await import('@readme/openapi-parser');
  const problems: Diagnostic[] = [];
  const loaded: LoadedSpec[] = [];
  for (const [index, config] of configs.entries()) {
    const file = config.file.replace(/^\.\//, '');
    const path = join(root, file);
    if (!existsSync(path)) {
      problems.push({ file: 'site.config.ts', pointer: `/openapi/${index}/file`, message: `names the missing spec file ${file}`, fix: 'check the path; it is relative to the folder of site.config.ts' });
      continue;
    }
    const source = mapSource(normaliseText(readFileSync(path, 'utf8')));
    if (source.document.errors.length > 0) {
      for (const error of source.document.errors) {
        const place = error.linePos?.[0];
        problems.push({ file, line: place?.line, column: place?.col, message: `is not valid YAML: ${error.message.split('\n')[0]}`, fix: 'fix the YAML syntax (indentation, quotes, colons)' });
      }
      continue;
    }
    const spec = source.document.toJS() as Record<string, unknown> | null;
    if (!spec || typeof spec !== 'object' || (!('openapi' in spec) && !('swagger' in spec))) {
      problems.push({ file, line: 1, pointer: '', message: 'is not an OpenAPI document (no `openapi` version at the top)', fix: 'start the file with `openapi: 3.0.3` (or 3.1.0), then `info` and `paths`' });
      continue;
    }
    const result = await validate(structuredClone(spec) as never);
    if (!result.valid) {
      for (const error of result.errors) {
        const { text, pointer: framed } = readValidatorMessage(error.message, spec);
        // A `$ref` to nothing comes without a code frame: point at the `$ref` itself.
        const missing = /Missing \$ref pointer "([^"]+)"/.exec(text)?.[1];
        const pointer = framed ?? (missing === undefined ? undefined : findRef(spec, missing));
        const place = pointer === undefined ? undefined : source.lineOf(pointer);
        const fix = missing === undefined ? SPEC_FIX : `point the $ref at a component that exists${componentHint(spec, missing)}`;
        problems.push({ file, line: place?.line, column: place?.column, pointer, message: missing === undefined ? text : `$ref "${missing}" points at nothing`, fix });
      }
      if (result.additionalErrors > 0) problems.push({ file, message: `has ${result.additionalErrors} more problem${result.additionalErrors === 1 ? '' : 's'} the validator reports once these are fixed` });
      continue;
    }
    const cycle = referenceCycle(spec);
    if (cycle) {
      const place = source.lineOf(cycle[0]!);
      problems.push({
        file,
        line: place?.line,
        column: place?.column,
        pointer: cycle[0],
        message: `$ref cycle with no schema in it: ${cycle.join(' → ')}`,
        fix: 'give one of these a real schema (type, properties); a schema may refer to itself only from inside its properties or items',
      });
      continue;
    }
    try {
      const document = (await dereference(structuredClone(spec) as never, { dereference: { circular: true } })) as unknown as OpenAPIV3.Document;
      loaded.push({ config, file, document });
    } catch (error) {
      problems.push({ file, message: `cannot resolve a $ref: ${(error as Error).message}`, fix: 'point every $ref at an existing component, e.g. #/components/schemas/Team' });
    }
  }
  if (problems.length > 0) throw new DocsError('content', problems);
  return loaded;
}

/** `, e.g. one of: A, B` — the schema names the spec does have, when the missing one is a schema. */
function componentHint(spec: Record<string, unknown>, missing: string): string {
  const schemas = Object.keys(((spec.components as Record<string, unknown> | undefined)?.schemas as object | undefined) ?? {});
  return missing.startsWith('#/components/schemas/') && schemas.length > 0 ? `, e.g. one of: ${schemas.map((name) => `#/components/schemas/${name}`).join(', ')}` : '';
}

/**
 * A chain of component schemas that are nothing but `$ref`s to each other (A → B → A): no structure
 * anywhere, so no page could show it. Schemas that refer to themselves from inside properties or
 * items are recursive data, and fine.
 */
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
