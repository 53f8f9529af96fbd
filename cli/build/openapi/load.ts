/**
 * Stage 4a, openapi: read, validate and dereference each spec with @readme/openapi-parser. Every
 * problem names the file, the line and the JSON pointer.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenAPIV3 } from 'openapi-types';
import { DocsError, type Diagnostic } from '../../util/errors';
import type { OpenApiConfig } from '../config';
import { mapSource, readValidatorMessage } from './spec-errors';

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
    const source = mapSource(readFileSync(path, 'utf8'));
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
        const { text, pointer } = readValidatorMessage(error.message, spec);
        const place = pointer === undefined ? undefined : source.lineOf(pointer);
        problems.push({ file, line: place?.line, column: place?.column, pointer: pointer ?? undefined, message: text, fix: SPEC_FIX });
      }
      if (result.additionalErrors > 0) problems.push({ file, message: `has ${result.additionalErrors} more problem${result.additionalErrors === 1 ? '' : 's'} the validator reports once these are fixed` });
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
