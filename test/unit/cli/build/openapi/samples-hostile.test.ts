/**
 * Code samples survive any spec: whatever strings a spec's examples hold, every sample runs in its
 * language against a local server, runs nothing it should not, and sends exactly the spec's values.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenAPIV3 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeSamples, headerValue, sampleRequest } from '../../../../../cli/build/openapi/samples';

/** Strings that break naive quoting in one of the four languages, or in the markdown around them. */
const HOSTILE = [
  `it's "quoted" and 'single'`,
  'back\\slash \\n \\u0041 \\',
  'line one\nline two\r\nline three\n',
  'a tick ` and a fence\n```\n:::\n~~~',
  '#{`touch PWNED`} ${require("fs").writeFileSync("PWNED", "")} $(touch PWNED) `touch PWNED`',
  '%s %d {{x}} [a] {b} \u2028 \u2029 \t é 😀 \u0001 \u007f',
  '@/etc/passwd',
  "'; DROP TABLE users; --",
];

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server;
let origin: string;
const received: Received[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Runs `command` in `cwd` (bounded to 20 s) and resolves to its exit code and output. */
function run(command: string, args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, timeout: 20_000 });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const RUNNERS: Record<string, { file: string; command: (file: string) => [string, string[]] }> = {
  curl: { file: 'sample.sh', command: (file) => ['bash', [file]] },
  ruby: { file: 'sample.rb', command: (file) => ['ruby', [file]] },
  nodejs: { file: 'sample.mjs', command: (file) => [process.execPath, [file]] },
  python: { file: 'sample.py', command: (file) => ['python3', [file]] },
};

describe('cli/build/openapi/samples with hostile strings', () => {
  it('sends exactly the spec values from every language, and runs nothing else', async () => {
    for (const [i, hostile] of HOSTILE.entries()) {
      const body = { [hostile]: hostile, nested: [hostile, { deeper: hostile, n: 1.5, t: true, none: null }], __proto__: { polluted: hostile } };
      // `__proto__` as an own key, the way JSON.parse reads it from a spec.
      const example = JSON.parse(JSON.stringify({ ...body, ['__proto__']: undefined })) as Record<string, unknown>;
      Object.defineProperty(example, '__proto__', { value: { polluted: hostile }, enumerable: true, configurable: true, writable: true });
      const operation: OpenAPIV3.OperationObject = {
        responses: {},
        requestBody: { content: { 'application/json': { example } } },
      };
      const parameters: OpenAPIV3.ParameterObject[] = [
        { name: 'id', in: 'path', required: true, example: hostile },
        { name: 'q', in: 'query', example: hostile },
        { name: 'X-Note', in: 'header', example: hostile },
        { name: 'session', in: 'cookie', required: true, example: hostile },
      ];
      const securitySchemes: Record<string, OpenAPIV3.SecuritySchemeObject> = { cookieKey: { type: 'apiKey', in: 'cookie', name: 'quad_key' } };
      const request = sampleRequest({ server: origin, path: '/items/{id}/{undeclared}', method: 'post', operation, parameters, securitySchemes, security: [{ cookieKey: [] }], defaultHeaders: [['X-Quad-Version', 'WEB/4.0.0 (1)']] });
      const samples = codeSamples(request);
      for (const sample of samples) {
        // No raw line break may reach a sample's text outside its JSON: it could end the fence around it.
        expect(sample.code.split('\n').some((line) => /^\s*(```|~~~|:::)/.test(line)), `${sample.label} #${i}`).toBe(false);
        const dir = mkdtempSync(join(tmpdir(), 'docs-hostile-'));
        const runner = RUNNERS[sample.label]!;
        writeFileSync(join(dir, runner.file), `${sample.code}\n`);
        const before = received.length;
        const [command, args] = runner.command(runner.file);
        const result = await run(command, args, dir);
        expect(result.code, `${sample.label} #${i}: ${result.output}\n${sample.code}`).toBe(0);
        expect(existsSync(join(dir, 'PWNED')), `${sample.label} #${i} ran an embedded command`).toBe(false);
        expect(received.length, `${sample.label} #${i} made one request`).toBe(before + 1);
        const got = received.at(-1)!;
        const url = new URL(got.url, origin);
        expect(got.method).toBe('POST');
        expect(decodeURIComponent(url.pathname), sample.label).toBe(`/items/${hostile}/{undeclared}`);
        expect(url.searchParams.get('q'), sample.label).toBe(hostile);
        // HTTP cannot carry line breaks or control characters in a header (each run of them is one
        // space), and non-ASCII travels percent-encoded: headerValue says why.
        expect(got.headers['x-note'], sample.label).toBe(headerValue(hostile));
        const printable = hostile.replace(/[\u0000-\u0008\u000a-\u001f\u007f]+/g, ' ').trim();
        if (/^[\x20-\x7e\t]*$/.test(printable)) expect(got.headers['x-note'], sample.label).toBe(printable);
        expect(got.headers['x-quad-version']).toBe('WEB/4.0.0 (1)');
        // Cookie parameters and a cookie API key travel in one Cookie header, each value percent-encoded.
        const cookies = new Map((got.headers.cookie ?? '').split('; ').map((pair) => [pair.slice(0, pair.indexOf('=')), decodeURIComponent(pair.slice(pair.indexOf('=') + 1))] as const));
        expect(cookies.get('session'), sample.label).toBe(hostile);
        expect(cookies.get('quad_key'), sample.label).toBe('YOUR_API_KEY');
        expect(got.headers['content-type']).toBe('application/json');
        const sent = JSON.parse(got.body) as Record<string, unknown>;
        expect(Object.hasOwn(sent, '__proto__'), `${sample.label} #${i} sent the __proto__ key`).toBe(true);
        expect(sent, `${sample.label} #${i}`).toEqual(example);
      }
    }
  });
});
