import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpecs, type LoadedSpec } from '../../../../../cli/build/openapi/load';
import type { OpenAPIV3 } from 'openapi-types';
import { apiPages, operationSamples, sampleServer, serverUrl } from '../../../../../cli/build/openapi/pages';
import { REPO } from '../../../../support/site';

/** The syntax check of each sample language: file extension and command. */
const CHECKS: Record<string, { extension: string; command: (file: string) => [string, string[]] }> = {
  curl: { extension: 'sh', command: (file) => ['bash', ['-n', file]] },
  ruby: { extension: 'rb', command: (file) => ['ruby', ['-c', file]] },
  nodejs: { extension: 'js', command: (file) => [process.execPath, ['--check', file]] },
  python: { extension: 'py', command: (file) => ['python3', ['-m', 'py_compile', file]] },
};

/** The site's backend, where relative servers and a spec without one point. */
const BACKEND = 'https://api.quad.example';

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
      for (const { slug, samples } of operationSamples(spec, { defaultHeaders: [['X-Quad-Version', 'WEB/4.0.0 (1)']], backendUrl: BACKEND })) {
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
    const samples = operationSamples(auth, { defaultHeaders: [['X-Quad-Version', 'WEB/4.0.0 (1)']], backendUrl: BACKEND });
    const change = samples.find((entry) => entry.slug === 'change-password')!.samples;
    const curl = change.find((sample) => sample.label === 'curl')!.code;
    expect(curl).toMatch(/^curl --request PATCH/);
    expect(curl).toContain("--url 'https://api.quad.example/api/auth/password'");
    expect(curl).toContain("--header 'X-Quad-Version: WEB/4.0.0 (1)'");
    expect(curl).toContain("--header 'access-token: YOUR_ACCESS_TOKEN'");
    expect(curl).toContain("--header 'Content-Type: application/json'");
    expect(curl).toContain('"password_confirmation"');
    const team = operationSamples(specs[2]!, { defaultHeaders: [], backendUrl: BACKEND }).find((entry) => entry.slug === 'get-team')!.samples;
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
    const curl = operationSamples(spec, { defaultHeaders: [], backendUrl: BACKEND })[0]!.samples[0]!.code;
    expect(curl).toMatch(/--url 'https:\/\/eu\.timing\.quad\.example:8443\/v2\//);
  });

  it("calls an operation's or path's own server, and reads a relative one, or none, from the site's backend", () => {
    expect(sampleServer([], BACKEND)).toBe('https://api.quad.example');
    expect(sampleServer([{ url: '/v2' }], 'https://api.quad.example/')).toBe('https://api.quad.example/v2');
    expect(sampleServer([{ url: 'v2' }], 'https://quad.example/api')).toBe('https://quad.example/api/v2');
    expect(sampleServer([{ url: '//timing.quad.example/' }], BACKEND)).toBe('https://timing.quad.example');
    expect(sampleServer([{ url: 'http://localhost:{port}', variables: { port: { default: '4000' } } }], BACKEND)).toBe('http://localhost:4000');

    const [first] = specs;
    const [path, item] = Object.entries(first!.document.paths!)[0]!;
    const method = (['get', 'post', 'put', 'patch', 'delete'] as const).find((name) => item![name])!;
    const operations = (document: OpenAPIV3.Document) => operationSamples({ ...first!, document }, { defaultHeaders: [], backendUrl: BACKEND });
    const curlOf = (document: OpenAPIV3.Document) => operations(document)[0]!.samples.find((sample) => sample.label === 'curl')!.code;
    // No servers anywhere: the backend, not an invented host.
    const bare: OpenAPIV3.Document = { ...first!.document, servers: undefined, paths: { [path]: item } };
    expect(curlOf(bare)).toContain(`'https://api.quad.example${path.split('{')[0]}`);
    expect(curlOf(bare)).not.toContain('example.com');
    // The path item's servers win over the spec's, the operation's over both; an empty list is no override.
    const withPath: OpenAPIV3.Document = { ...bare, servers: [{ url: 'https://spec.quad.example' }], paths: { [path]: { ...item, servers: [{ url: 'https://path.quad.example' }] } } };
    expect(curlOf(withPath)).toContain("'https://path.quad.example/");
    const withOperation: OpenAPIV3.Document = { ...withPath, paths: { [path]: { ...item, servers: [{ url: 'https://path.quad.example' }], [method]: { ...item![method], servers: [{ url: '/timing' }] } } } };
    expect(curlOf(withOperation)).toContain("'https://api.quad.example/timing/");
    const emptyOverride: OpenAPIV3.Document = { ...withPath, paths: { [path]: { ...item, servers: [] } } };
    expect(curlOf(emptyOverride)).toContain("'https://spec.quad.example/");

    // What a reader sees: the overview says where samples go, an operation page names its own server.
    const pages = (document: OpenAPIV3.Document) => apiPages({ ...first!, document }, { defaultHeaders: [], backendUrl: BACKEND }).markdown;
    expect(pages(bare)[0]!.text).toContain("The specification names no server, so the code samples call the site's backend, `https://api.quad.example`.");
    expect(pages(withOperation)[1]!.text).toContain('This operation is called on a server of its own, not on those of the overview:\n\n- `/timing`');
    expect(pages(withPath)[0]!.text).toContain('- `https://spec.quad.example`');
    expect(pages({ ...bare, servers: [{ url: '/v1' }] })[0]!.text).toContain("The first address is relative: the code samples read it from the site's backend and call `https://api.quad.example/v1`.");
  });
});
