#!/usr/bin/env node
// `npm run bench` (fourth part): what the gate costs. The portal is built twice (plain and --gate);
// `docs serve --dist` serves the plain build and `docs serve --dist --gate` the gated one, each in its
// own process on 127.0.0.1. A bounded loop (16 connections kept alive, three alternating 3 s measurements
// each, after a 1 s warm-up) asks each for a page and for the runtime's entry script; the gated host is asked with a
// valid session cookie, so it does all its work (cookie check, headers) on every request.
// Budget (issue 14): the gate costs at most 10 % of the requests per second.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SECRET = 'bench secret, long enough for the gate to accept it';
const tmp = join(root, 'test', '.tmp');

function build(name, args) {
  const out = join(tmp, name);
  const result = spawnSync(process.execPath, [join(root, 'bin/docs.mjs'), 'build', '--out', out, ...args], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  return out;
}

function serve(args, env = {}) {
  const child = spawn(process.execPath, [join(root, 'bin/docs.mjs'), 'serve', '--port', '0', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  let output = '';
  return new Promise((resolve) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /docs serve: (http:\/\/\S+)/.exec(output);
      if (match) resolve({ url: match[1], pid: child.pid, stop: () => child.kill('SIGINT') });
    });
  });
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Requests per second for `path` over `seconds`, `connections` requests in flight, and the server's
 * CPU time per request, which a busy shared machine disturbs far less than the rate.
 */
async function rate(host, path, headers, seconds, connections = 16) {
  const cpuBefore = cpuSeconds(host.pid);
  const perSecond = await rateOf(host.url, path, headers, seconds, connections);
  return { perSecond, cpuPerRequest: (cpuSeconds(host.pid) - cpuBefore) / (perSecond * seconds) };
}

async function rateOf(url, path, headers, seconds, connections) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const { hostname, port } = new URL(url);
  const one = () =>
    new Promise((resolve, reject) => {
      const req = request({ hostname, port, path, agent, headers: { 'accept-encoding': 'gzip', ...headers } }, (response) => {
        if (response.statusCode !== 200) reject(new Error(`${path}: HTTP ${response.statusCode}`));
        response.resume();
        response.on('end', resolve);
      });
      req.on('error', reject);
      req.end();
    });
  const end = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        await one();
        done++;
      }
    }),
  );
  agent.destroy();
  return done / seconds;
}

const plain = build('bench-plain', []);
const gated = build('bench-gated', ['--gate']);
// The gate's own code, compiled from cli/serve: the session key the host derives from the secret and
// the backend (serve-gate.ts `sessionKey`), the cookie as it signs it (sessions.ts), the gate itself.
const { build: esbuild } = await import('esbuild');
const compiled = await esbuild({
  stdin: { contents: "export { createGate } from './gate';\nexport { sessionKey } from './serve-gate';\nexport { signSession } from './sessions';\n", resolveDir: join(root, 'cli/serve'), loader: 'ts' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  write: false,
  logLevel: 'silent',
});
const gateModule = await import(`data:text/javascript;base64,${Buffer.from(compiled.outputFiles[0].text).toString('base64')}`);
const BACKEND = 'http://127.0.0.1:9';
const key = gateModule.sessionKey(Buffer.from(SECRET), { backend: BACKEND });
const cookie = `docs_session=${gateModule.signSession(key, 'member@quad.example', Math.floor(Date.now() / 1000) + 3600)}`;
const asset = `/assets/${readdirSync(join(plain, 'assets')).find((file) => /^app\..*\.js$/.test(file))}`;
const gatedAsset = `/assets/${readdirSync(join(gated, 'assets')).find((file) => /^app\..*\.js$/.test(file))}`;

const plainHost = await serve(['--dist', plain]);
const gatedHost = await serve(['--dist', gated, '--gate', '--backend', BACKEND], { DOCS_SESSION_SECRET: SECRET });
const rows = [];
for (const [label, path, gatedPath] of [
  ['page /backend/onboarding/git', '/backend/onboarding/git', '/backend/onboarding/git'],
  ['asset (runtime entry)', asset, gatedAsset],
]) {
  await rate(plainHost, path, {}, 1);
  await rate(gatedHost, gatedPath, { cookie }, 1);
  // Alternate (each goes first in turn), three times each: the machine is shared.
  const plainRuns = [];
  const gatedRuns = [];
  for (let round = 0; round < 3; round++) {
    const plainRun = () => rate(plainHost, path, {}, 3).then((r) => plainRuns.push(r));
    const gatedRun = () => rate(gatedHost, gatedPath, { cookie }, 3).then((r) => gatedRuns.push(r));
    if (round % 2 === 0) await plainRun().then(gatedRun);
    else await gatedRun().then(plainRun);
  }
  const best = (runs) => Math.max(...runs.map((run) => run.perSecond));
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  rows.push({ label, p: best(plainRuns), g: best(gatedRuns), pc: median(plainRuns.map((run) => run.cpuPerRequest)), gc: median(gatedRuns.map((run) => run.cpuPerRequest)) });
}
plainHost.stop();
gatedHost.stop();

// The gate's own work on a request with a session, measured alone (the loopback figures above swing by
// tens of per cent between runs on this shared machine): parse the cookie header, check the HMAC and
// the expiry, rewrite two headers.
const served = { count: 0 };
const gate = gateModule.createGate({ secret: key, roles: ['quad_member'], logoutPath: '/logout', sessionSeconds: 3600, login: async () => ({}), serve: (_request, response) => { served.count++; response.writeHead(200, { 'cache-control': 'public, max-age=1' }); } });
const fakeResponse = () => ({ writeHead() { return this; }, end() {} });
const fakeRequest = { url: '/backend/onboarding/git', method: 'GET', headers: { cookie: `theme=dark; ${cookie}` }, socket: { remoteAddress: '127.0.0.1' } };
const N = 100_000;
for (let i = 0; i < 10_000; i++) gate.handle({ ...fakeRequest }, fakeResponse());
const t0 = performance.now();
for (let i = 0; i < N; i++) gate.handle({ ...fakeRequest }, fakeResponse());
const gateMicros = ((performance.now() - t0) * 1000) / N;
if (served.count !== N + 10_000) throw new Error('the gate did not pass the signed-in requests on');

console.log('\nThe gate (issue 14): 16 connections, three alternating 3 s runs each, this machine');
console.log('| | --dist req/s (best) | --gate req/s (best, with session) | --dist CPU/request (median) | --gate CPU/request (median) | gate cost in CPU |');
console.log('|---|---|---|---|---|---|');
for (const { label, p, g, pc, gc } of rows) console.log(`| ${label} | ${Math.round(p)} | ${Math.round(g)} | ${(pc * 1e6).toFixed(0)} µs | ${(gc * 1e6).toFixed(0)} µs | ${((gc / pc - 1) * 100).toFixed(1)} % |`);
const pageCpu = rows[0].pc * 1e6;
console.log(`The gate's own work on a signed-in request, measured alone: ${gateMicros.toFixed(1)} µs, ${((gateMicros / pageCpu) * 100).toFixed(1)} % of the ${pageCpu.toFixed(0)} µs a page request costs --dist (budget 10 %).`);
