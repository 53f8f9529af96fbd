import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpecs, type LoadedSpec } from '../../../../../cli/build/openapi/load';
import type { OpenAPIV3 } from 'openapi-types';
import { operationSamples, serverUrl } from '../../../../../cli/build/openapi/pages';
import { REPO } from '../../../../support/site';

/** The syntax check of each sample language: file extension and command. */
const CHECKS: Record<string, { extension: string; command: (file: string) => [string, string[]] }> = {
  curl: { extension: 'sh', command: (file) => ['bash', ['-n', file]] },
  ruby: { extension: 'rb', command: (file) => ['ruby', ['-c', file]] },
  nodejs: { extension: 'js', command: (file) => [process.execPath, ['--check', file]] },
  python: { extension: 'py', command: (file) => ['python3', ['-m', 'py_compile', file]] },
};

let specs: LoadedSpec[];
beforeAll(async () => {
  specs = await loadSpecs(REPO, [
    { file: 'specs/user-authentication.yaml', route: '/a', sidebar: 'a' },
    { file: 'specs/cp-authentication.yaml', route: '/b', sidebar: 'b' },
    { file: 'specs/24urenloop.yaml', route: '/c', sidebar: 'c' },
  ]);
});

describe('cli/build/openapi/samples', () => {
  it('writes every code sample of every operation of the three specs as a valid program', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-samples-'));
    const failures: string[] = [];
    let checked = 0;
    for (const spec of specs) {
      for (const { slug, samples } of operationSamples(spec, { defaultHeaders: [['X-Quad-Version', 'WEB/4.0.0 (1)']] })) {
        expect(samples.map((sample) => sample.label)).toEqual(['curl', 'ruby', 'nodejs', 'python']);
        for (const sample of samples) {
          const check = CHECKS[sample.label]!;
          const file = join(dir, `${slug}.${sample.label}.${check.extension}`);
          writeFileSync(file, `${sample.code}\n`);
          const [command, args] = check.command(file);
          const result = spawnSync(command, args, { encoding: 'utf8' });
          if (result.error) throw new Error(`${command} is needed to check the ${sample.label} samples: ${result.error.message}`);
          if (result.status !== 0) failures.push(`${spec.file} ${slug} (${sample.label}): ${result.stderr || result.stdout}`);
          checked++;
        }
      }
    }
    expect(failures).toEqual([]);
    // 7 + 1 + 13 operations, four samples each.
    expect(checked).toBe(21 * 4);
  });

  it('fills path parameters, the version header, auth headers and a JSON body into the samples', () => {
    const auth = specs[0]!;
    const samples = operationSamples(auth, { defaultHeaders: [['X-Quad-Version', 'WEB/4.0.0 (1)']] });
    const change = samples.find((entry) => entry.slug === 'change-password')!.samples;
    const curl = change.find((sample) => sample.label === 'curl')!.code;
    expect(curl).toMatch(/^curl --request PATCH/);
    expect(curl).toContain("--url 'https://api.quad.example/api/auth/password'");
    expect(curl).toContain("--header 'X-Quad-Version: WEB/4.0.0 (1)'");
    expect(curl).toContain("--header 'access-token: YOUR_ACCESS_TOKEN'");
    expect(curl).toContain("--header 'Content-Type: application/json'");
    expect(curl).toContain('"password_confirmation"');
    const team = operationSamples(specs[2]!, { defaultHeaders: [] }).find((entry) => entry.slug === 'get-team')!.samples;
    expect(team.find((sample) => sample.label === 'python')!.code).toMatch(/"https:\/\/[^"]+\/teams\/[^{"]+"/);
    expect(team.find((sample) => sample.label === 'ruby')!.code).toContain('Net::HTTP::Get.new(uri)');
  });

  it("fills a server's {variables} with their defaults", () => {
    const server: OpenAPIV3.ServerObject = {
      url: 'https://{region}.timing.quad.example:{port}/{basePath}',
      variables: { region: { default: 'eu', enum: ['eu', 'us'] }, port: { default: '8443' }, basePath: { default: 'v2' } },
    };
    expect(serverUrl(server)).toBe('https://eu.timing.quad.example:8443/v2');
    expect(serverUrl({ url: 'https://api.quad.example/{undeclared}' })).toBe('https://api.quad.example/{undeclared}');
    const spec: LoadedSpec = { ...specs[2]!, document: { ...specs[2]!.document, servers: [server] } };
    const curl = operationSamples(spec, { defaultHeaders: [] })[0]!.samples[0]!.code;
    expect(curl).toMatch(/--url 'https:\/\/eu\.timing\.quad\.example:8443\/v2\//);
  });
});
