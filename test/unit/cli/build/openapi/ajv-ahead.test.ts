/**
 * The compiled CLI hands @readme/openapi-parser its OpenAPI schemas compiled ahead (bin/ensure-built.mjs
 * `sharedAjv`, cli/build/openapi/ajv-ahead.ts): every OpenAPI version the parser knows must be carried,
 * and a spec must get the very result the published parser gives, errors and their order included.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { validate as published } from '@readme/openapi-parser';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { openapiValidators, sharedAjv } from '../../../../../bin/ensure-built.mjs';
import { ajvAhead } from '../../../../../cli/build/openapi/ajv-ahead';
import { REPO } from '../../../../support/site';

type Validate = typeof published;

const info = { title: 'Timing API', version: '2.4.0' };
const teams = { get: { summary: 'List the teams', responses: { '200': { description: 'The teams on the track' } } } };
/** Valid specs of each version, and each broken in three places (no version, an operation without responses, a parameter nowhere). */
const specs: Record<string, object> = {
  'Swagger 2.0': { swagger: '2.0', info, paths: { '/teams': teams } },
  'OpenAPI 3.0': { openapi: '3.0.3', info, paths: { '/teams': teams }, components: { schemas: { Team: { type: 'object', properties: { name: { type: 'string' } } } } } },
  'OpenAPI 3.1': { openapi: '3.1.0', info, paths: { '/teams': teams }, components: { schemas: { Team: { type: ['object', 'null'], properties: { laps: { type: 'integer', minimum: 0 } } } } } },
};
const broken = (spec: object): object => {
  const copy = structuredClone(spec) as { info: { version?: string }; paths: Record<string, { get: { responses?: object; parameters?: object[] } }> };
  delete copy.info.version;
  delete copy.paths['/teams']!.get.responses;
  copy.paths['/teams']!.get.parameters = [{ name: 'lap', in: 'sideways' }];
  return copy;
};

describe('the OpenAPI schemas compiled ahead', () => {
  let ahead: Validate;
  beforeAll(async () => {
    // The parser bundled as the compiled CLI bundles it, except that a schema not carried throws.
    const dir = join(REPO, 'test', '.tmp', 'ajv-ahead');
    mkdirSync(dir, { recursive: true });
    const outfile = join(dir, `parser-${process.pid}.mjs`);
    await build({
      stdin: { contents: "export { validate } from '@readme/openapi-parser';", resolveDir: REPO, loader: 'js' },
      bundle: true,
      format: 'esm',
      platform: 'node',
      outfile,
      logLevel: 'error',
      banner: { js: "import { createRequire as __docsCreateRequire } from 'node:module'; const require = __docsCreateRequire(import.meta.url);" },
      plugins: [sharedAjv(await openapiValidators(), false)],
    });
    ahead = ((await import(pathToFileURL(outfile).href)) as { validate: Validate }).validate;
  }, 60_000);

  it.each(Object.keys(specs))('carries the schema of %s and gives what the published parser gives', async (version) => {
    const valid = await ahead(structuredClone(specs[version]!) as never);
    expect(valid).toEqual(await published(structuredClone(specs[version]!) as never));
    expect(valid.valid).toBe(true);
    const invalid = await ahead(broken(specs[version]!) as never);
    expect(invalid).toEqual(await published(broken(specs[version]!) as never));
    expect(invalid.valid).toBe(false);
    expect(invalid.valid || invalid.errors.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(invalid)).toContain("must have required property 'version'");
  });

  it('compiles a schema it does not carry, once per options, and keeps each validation\'s errors apart', () => {
    let made = 0;
    class CountingAjv {
      errors: Record<string, unknown>[] | null = null;
      constructor() {
        made += 1;
      }
      validate(_schema: object, data: unknown): boolean {
        this.errors = data === 1 ? null : [{ message: `not 1: ${String(data)}` }];
        return data === 1;
      }
    }
    const carried = Object.assign((data: unknown) => data === 'yes', { errors: null });
    const Ahead = ajvAhead(CountingAjv, [{ options: JSON.stringify({ allErrors: true }), schema: JSON.stringify({ const: 'yes' }), validate: carried }]);
    const first = new Ahead({ allErrors: true });
    const second = new Ahead({ allErrors: true });
    expect(first.validate({ const: 'yes' }, 'yes')).toBe(true);
    expect(made).toBe(0);
    expect(first.validate({ const: 1 }, 2)).toBe(false);
    expect(second.validate({ const: 1 }, 1)).toBe(true);
    expect(made).toBe(1);
    expect(first.errors).toEqual([{ message: 'not 1: 2' }]);
    expect(second.errors).toBeNull();
    // Other options: the carried validator is not theirs.
    expect(new Ahead({ allErrors: false }).validate({ const: 'yes' }, 'yes')).toBe(false);
    expect(made).toBe(2);
  });
});
