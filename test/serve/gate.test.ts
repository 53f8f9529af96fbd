/**
 * The gate holds on the wire (issue 14): the portal built with --gate, served by `docs serve --dist
 * --gate` in front of a login backend, and asked with plain HTTP — no browser — for everything.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerLogin, readJson } from '../../cli/serve/dev-login';
import { signSession } from '../../cli/serve/sessions';
import { sessionKey } from '../../cli/serve/serve-gate';
import type { Manifest } from '../../runtime/manifest';
import { buildPortal } from '../support/browser';
import { startServe, type ServeProcess } from '../support/serve';
import { copyFixture, REPO, runDocs } from '../support/site';

const SECRET = 'a test secret that is long enough for the gate, 48 bytes';

let backend: Server;
let backendUrl: string;
let backendHits = 0;
let plainDist: string;
let gatedDist: string;
let host: ServeProcess;
/** The first heading and paragraph of every page of the ungated build: text no signed-out answer may hold. */
let secrets: { route: string; text: string }[];

const text = (html: string): string => html.replace(/<[^>]+>/g, '').replace(/&amp;/g, '&').replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"').trim();

beforeAll(async () => {
  backend = createServer((request, response) => {
    void (async () => {
      backendHits++;
      const answer = answerLogin(await readJson(request));
      response.writeHead(answer.status, { 'content-type': 'application/json', 'x-backend': 'yes', ...answer.headers }).end(JSON.stringify(answer.body));
    })();
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
  plainDist = buildPortal('gate-plain');
  gatedDist = buildPortal('gate-dist', {}, ['--gate']);
  const manifest = JSON.parse(readFileSync(join(plainDist, 'manifest.json'), 'utf8')) as Manifest;
  secrets = [];
  for (const route of manifest.routes) {
    const html = readFileSync(join(plainDist, route.path === '/' ? 'index.html' : `${route.path.slice(1)}/index.html`), 'utf8');
    const h1 = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1];
    const paragraph = /<div class="markdown">[\s\S]*?<p>([\s\S]*?)<\/p>/.exec(html)?.[1];
    for (const part of [h1, paragraph]) if (part && text(part).length >= 12) secrets.push({ route: route.path, text: text(part).slice(0, 60) });
  }
  host = await startServe(REPO, ['--dist', gatedDist, '--gate', '--backend', backendUrl], { DOCS_SESSION_SECRET: SECRET });
}, 240_000);

afterAll(async () => {
  await host?.stop();
  await new Promise<void>((resolve) => backend.close(() => resolve()));
});

/** Logs in with a development account and returns the answer and the session cookie it set, if any. */
async function logIn(email: string, password = 'docs-dev', extra: Record<string, string> = {}): Promise<{ response: Response; cookie?: string; setCookie: string[] }> {
  const response = await fetch(`${host.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.0.0.1', ...extra }, body: JSON.stringify({ email, password }) });
  const setCookie = response.headers.getSetCookie();
  const session = setCookie.find((line) => line.startsWith('docs_session='));
  return { response, setCookie, cookie: session?.split(';')[0] };
}

describe('the gated host without a session', () => {
  it('answers every route, manifest.json, every page chunk and every content file without any page text', async () => {
    const manifest = JSON.parse(readFileSync(join(plainDist, 'manifest.json'), 'utf8')) as Manifest;
    expect(secrets.length).toBeGreaterThan(100);
    const paths = [
      ...manifest.routes.map((route) => encodeURI(route.path)),
      '/no/such/page',
      '/404.html',
      '/manifest.json',
      '/.docs-output.json',
      ...readdirSync(join(gatedDist, 'assets/pages')).map((file) => `/assets/pages/${file}`),
      // Content images, linked files and every search index file, where the portal has them, and a made-up one.
      ...['images', 'files', 'search'].flatMap((folder) => (existsSync(join(gatedDist, 'assets', folder)) ? readdirSync(join(gatedDist, 'assets', folder)).map((file) => `/assets/${folder}/${file}`) : [])),
      '/assets/images/diagram.0123abcd.png',
      '/assets/search/index.json',
    ];
    const leaks: string[] = [];
    const statuses = new Map<number, number>();
    let shell = '';
    for (const path of paths) {
      const response = await fetch(host.url + path, { redirect: 'manual' });
      const body = await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status !== 401 && response.status !== 301) leaks.push(`${path}: HTTP ${response.status}`);
      if (response.status === 401 && !/^\/assets|\.json$/.test(path)) {
        shell = body;
        expect(response.headers.get('cache-control')).toBe('no-store');
      }
      for (const secret of secrets) if (body.includes(secret.text)) leaks.push(`${path} holds "${secret.text}" of ${secret.route}`);
    }
    expect(leaks).toEqual([]);
    expect(paths.filter((path) => path.startsWith('/assets/search/')).length).toBeGreaterThan(30);
    // Routes get the sign-in shell: the login screen's runtime and the site's own title, nothing else.
    expect(shell).toContain('<title>Docs</title>');
    expect(shell).toContain('data-gate-shell');
    expect(shell).not.toMatch(/class="sidebar|<nav class="toc|"routes"|class="announcement/);
    // Nor the site's structure or addresses: the sections' labels and routes of the navbar, the repository, the backend.
    expect(shell).not.toMatch(/Contentproviders|Infrastructure|\/backend\/onboarding|git\.quad\.example|api\.quad\.example|internal-wiki/);
  });

  it("serves the runtime's own code, styles and icon to anyone", async () => {
    const assets = readdirSync(join(gatedDist, 'assets')).filter((file) => /^app\./.test(file));
    const chunks = readdirSync(join(gatedDist, 'assets/chunks')).slice(0, 5).map((file) => `chunks/${file}`);
    for (const file of [...assets, ...chunks]) expect((await fetch(`${host.url}/assets/${file}`)).status, file).toBe(200);
    expect((await fetch(`${host.url}/favicon.svg`)).status).toBe(200);
  });

  it('answers a made-up path shaped like the runtime\'s code with a plain 404, never the site\'s 404 page', async () => {
    const announcement = 'Working a 24urenloop shift';
    expect(readFileSync(join(gatedDist, '404.html'), 'utf8')).toContain(announcement);
    for (const path of ['/assets/chunks/anything.js', '/assets/app.zzz.css', '/assets/app.nothing.js']) {
      for (const method of ['GET', 'HEAD']) {
        const response = await fetch(host.url + path, { method });
        expect(response.status, `${method} ${path}`).toBe(404);
        const body = await response.text();
        expect(body, path).not.toContain(announcement);
        expect(body, path).not.toContain('__DOCS_DATA__');
      }
    }
  });

  it('refuses a cookie with one byte changed, an expired one, one signed with another secret, and one another host with the same secret issued', async () => {
    const { cookie } = await logIn('member@quad.example');
    expect(cookie).toBeDefined();
    const value = cookie!.slice('docs_session='.length);
    const flipped = value.slice(0, 5) + (value[5] === 'A' ? 'B' : 'A') + value.slice(6);
    const inAnHour = Math.floor(Date.now() / 1000) + 3600;
    const key = sessionKey(Buffer.from(SECRET), { backend: backendUrl });
    // Signed as this host signs: admitted while it runs, refused once expired.
    expect((await fetch(`${host.url}/onboarding`, { headers: { cookie: `docs_session=${signSession(key, 'member@quad.example', inAnHour)}` } })).status).toBe(200);
    const expired = signSession(key, 'member@quad.example', Math.floor(Date.now() / 1000) - 10);
    const foreign = signSession(Buffer.from('another secret, also long enough to be accepted'), 'member@quad.example', inAnHour);
    // The same secret, another audience: a `docs serve --gate` with the development accounts (whose
    // password is in the README), or a host in front of another backend (staging).
    const devServer = signSession(sessionKey(Buffer.from(SECRET), {}), 'member@quad.example', inAnHour);
    const staging = signSession(sessionKey(Buffer.from(SECRET), { backend: 'https://staging.api.quad.example' }), 'member@quad.example', inAnHour);
    const rawSecret = signSession(Buffer.from(SECRET), 'member@quad.example', inAnHour);
    expect((await fetch(`${host.url}/onboarding`, { headers: { cookie: cookie! } })).status).toBe(200);
    for (const bad of [flipped, expired, foreign, devServer, staging, rawSecret, `${value}x`, 'garbage']) {
      const response = await fetch(`${host.url}/onboarding`, { headers: { cookie: `docs_session=${bad}` } });
      expect(response.status, bad).toBe(401);
      expect(await response.text()).toContain('data-gate-shell');
    }
  });
});

describe('logging in through the gated host', () => {
  it('forwards the login unchanged, passes the answer back, and sets a signed HttpOnly cookie for an admitted role', async () => {
    const before = backendHits;
    const { response, cookie, setCookie } = await logIn('member@quad.example');
    expect(backendHits).toBe(before + 1);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-backend')).toBe('yes');
    expect(((await response.json()) as { data: { user: { email: string } } }).data.user.email).toBe('member@quad.example');
    const line = setCookie.find((entry) => entry.startsWith('docs_session='))!;
    expect(line).toMatch(/; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax$/);
    const page = await fetch(`${host.url}/onboarding`, { headers: { cookie: cookie! } });
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('private, no-cache');
    expect(page.headers.get('vary')).toMatch(/cookie/i);
    const body = await page.text();
    expect(body).toContain(secrets.find((secret) => secret.route === '/onboarding')!.text);
    const manifest = await fetch(`${host.url}/manifest.json`, { headers: { cookie: cookie! } });
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('takes a login sent with Expect: 100-continue (curl, for larger bodies), which the backend call refused with a 502', async () => {
    const body = JSON.stringify({ email: 'member@quad.example', password: 'docs-dev' });
    const status = await new Promise<number>((resolve, reject) => {
      const call = httpRequest(`${host.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue', 'x-forwarded-for': '10.0.0.5' } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      call.on('continue', () => call.end(body));
      call.on('error', reject);
    });
    expect(status).toBe(200);
  });

  it('shows the sign-in shell to a browser opening a route with a dot in it, and a plain 401 to anything else asking for a file', async () => {
    for (const headers of [{ 'sec-fetch-dest': 'document' }, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }] as Record<string, string>[]) {
      const page = await fetch(`${host.url}/onboarding/release-2.0`, { headers });
      expect(page.status).toBe(401);
      expect(await page.text()).toContain('data-gate-shell');
    }
    const file = await fetch(`${host.url}/onboarding/release-2.0`, { headers: { accept: '*/*' } });
    expect(file.status).toBe(401);
    expect(await file.text()).toBe('Sign in first.');
  });

  it('marks the cookie Secure unless the reader is on this machine over plain HTTP', async () => {
    const { setCookie } = await logIn('member@quad.example', 'docs-dev', { 'x-forwarded-proto': 'https' });
    expect(setCookie.find((entry) => entry.startsWith('docs_session='))).toMatch(/; Secure$/);
  });

  it('gives a role that does not count its answer but no session', async () => {
    const { response, cookie } = await logIn('alumnus@quad.example');
    expect(response.status).toBe(200);
    expect(cookie).toBeUndefined();
  });

  it('clears the session on POST /logout, and the cookie opens nothing afterwards, even kept', async () => {
    const { cookie } = await logIn('member@quad.example');
    // The same reader on another machine: a session of its own.
    const other = (await logIn('member@quad.example')).cookie!;
    expect(other).not.toBe(cookie);
    expect((await fetch(`${host.url}/onboarding`, { headers: { cookie: cookie! } })).status).toBe(200);
    const response = await fetch(`${host.url}/logout`, { method: 'POST', headers: { cookie: cookie! } });
    expect(response.status).toBe(204);
    expect(response.headers.getSetCookie()[0]).toMatch(/^docs_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax/);
    // A copy of the cookie made before the reader logged out (a shared machine, a proxy's log).
    const after = await fetch(`${host.url}/onboarding`, { headers: { cookie: cookie! } });
    expect(after.status).toBe(401);
    expect(await after.text()).toContain('data-gate-shell');
    expect((await fetch(`${host.url}/manifest.json`, { headers: { cookie: cookie! } })).status).toBe(401);
    // The other machine's session goes on.
    expect((await fetch(`${host.url}/onboarding`, { headers: { cookie: other } })).status).toBe(200);
    // Without a session, logging out only clears the cookie.
    expect((await fetch(`${host.url}/logout`, { method: 'POST' })).status).toBe(204);
  });

  it('answers 400 to a request target that is no URL (`//`, a bad port), and keeps serving: one such request ended the host', async () => {
    const raw = (target: string): Promise<string> =>
      new Promise((resolve, reject) => {
        const socket = connect(Number(new URL(host.url).port), '127.0.0.1', () => socket.end(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`));
        let answer = '';
        socket.on('data', (chunk) => (answer += String(chunk)));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
      });
    for (const target of ['//', '///', '/\\', '//x:abc/', 'http://a:99999/', 'http://[::1']) {
      const answer = await raw(target);
      expect(answer, target).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).not.toMatch(/<h1|Quad Docs/);
    }
    expect((await fetch(`${host.url}/onboarding`)).status).toBe(401);
  });

  it('takes a login from its own page behind a proxy that passes its own name as Host (nginx by default)', async () => {
    // The browser is on docs.quad.example; nginx asks the host as `docs`, its upstream's name.
    const proxied = { host: 'docs', origin: 'https://docs.quad.example', 'x-forwarded-for': '10.0.0.7' };
    const own = await logIn('member@quad.example', 'docs-dev', { ...proxied, 'sec-fetch-site': 'same-origin' });
    expect(own.response.status).toBe(200);
    expect(own.cookie).toMatch(/^docs_session=/);
    // Another site's page behind the same proxy is still refused, by what the browser says or, when it says nothing, by its Origin.
    expect((await logIn('member@quad.example', 'docs-dev', { ...proxied, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).response.status).toBe(403);
    expect((await logIn('member@quad.example', 'docs-dev', { ...proxied, 'sec-fetch-site': 'same-site', origin: 'https://wiki.quad.example' })).response.status).toBe(403);
    expect((await logIn('member@quad.example', 'docs-dev', { ...proxied, origin: 'https://evil.example' })).response.status).toBe(403);
  });

  it("answers the site's public name on its default 127.0.0.1, as a proxy on the same machine asks it (nginx: proxy_set_header Host $host)", async () => {
    const named = (path: string, cookie?: string): Promise<{ status: number; body: string }> =>
      new Promise((resolve, reject) => {
        const call = httpRequest(`${host.url}${path}`, { headers: { host: 'docs.quad.example', 'x-forwarded-proto': 'https', ...(cookie ? { cookie } : {}) } }, (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode!, body }));
        });
        call.on('error', reject);
        call.end();
      });
    // Without a session: the sign-in shell, as under any name (no 403 naming --host).
    const out = await named('/onboarding');
    expect(out.status).toBe(401);
    expect(out.body).toContain('data-gate-shell');
    const { cookie } = await logIn('member@quad.example');
    const signedIn = await named('/onboarding', cookie);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toContain('<h1>Welcome to Quad</h1>');
  });

  it('takes no login or logout from another site, and no login that is not JSON', async () => {
    const before = backendHits;
    const evil = await logIn('member@quad.example', 'docs-dev', { origin: 'https://evil.example' });
    expect(evil.response.status).toBe(403);
    expect(evil.cookie).toBeUndefined();
    expect((await logIn('member@quad.example', 'docs-dev', { 'sec-fetch-site': 'cross-site' })).response.status).toBe(403);
    expect((await logIn('member@quad.example', 'docs-dev', { origin: 'null' })).response.status).toBe(403);
    // A form on another page can post text/plain without asking first; the login screen sends JSON.
    const form = await fetch(`${host.url}/api/login`, { method: 'POST', headers: { 'content-type': 'text/plain', 'x-forwarded-for': '10.0.0.2' }, body: JSON.stringify({ email: 'member@quad.example', password: 'docs-dev' }) });
    expect(form.status).toBe(415);
    expect(form.headers.getSetCookie()).toEqual([]);
    expect(backendHits).toBe(before);
    // The login screen itself: same origin (Origin is the host it came from).
    const own = await logIn('member@quad.example', 'docs-dev', { origin: host.url, 'sec-fetch-site': 'same-origin' });
    expect(own.response.status).toBe(200);
    const refused = await fetch(`${host.url}/logout`, { method: 'POST', headers: { cookie: own.cookie!, origin: 'https://evil.example' } });
    expect(refused.status).toBe(403);
    expect(refused.headers.getSetCookie()).toEqual([]);
    expect((await fetch(`${host.url}/onboarding`, { headers: { cookie: own.cookie! } })).status).toBe(200);
  });

  it('answers the eleventh failed login within a minute with 429 and Retry-After, without asking the backend', async () => {
    for (let i = 0; i < 10; i++) expect((await logIn('member@quad.example', 'wrong')).response.status).toBe(401);
    const before = backendHits;
    const { response } = await logIn('member@quad.example', 'wrong');
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(backendHits).toBe(before);
    // Even the right password waits: the limit is on the address, not on guessing.
    expect((await logIn('member@quad.example')).response.status).toBe(429);
  });
});

describe('starting the gated host', () => {
  it('refuses to start without a secret of 32 bytes, without a backend, or on a build that is not gated', async () => {
    const run = async (args: string[], env: Record<string, string>): Promise<string> => {
      const result = runDocs(['serve', '--port', '0', ...args], { env });
      expect(result.code, result.stderr).toBe(2);
      // Nothing was built: the server did not start, and says so.
      expect(result.stderr).toMatch(/\ndocs serve did not start: 1 error\.\n$/);
      expect(result.stderr).not.toContain('Build failed');
      return result.stderr;
    };
    // A session must outlive its Max-Age of whole seconds: under a minute it is refused.
    expect(await run(['--dist', gatedDist, '--backend', backendUrl, '--session-days', '0.000001'], { DOCS_SESSION_SECRET: SECRET })).toContain('--session-days must be a number of days from one minute (0.0007) to 400, got "0.000001"');
    expect(await run(['--dist', gatedDist, '--gate', '--backend', backendUrl], { DOCS_SESSION_SECRET: '' })).toContain('DOCS_SESSION_SECRET: is not set');
    expect(await run(['--dist', gatedDist, '--gate', '--backend', backendUrl], { DOCS_SESSION_SECRET: 'short' })).toContain('is 5 bytes long; the gate needs at least 32');
    expect(await run(['--dist', gatedDist, '--gate'], { DOCS_SESSION_SECRET: SECRET })).toContain('--gate with --dist needs --backend URL');
    // A backend that is no http(s) address: named with the fix, not an internal error (exit 70) or a 502 at every login.
    expect(await run(['--dist', gatedDist, '--backend', 'api.quad.example'], { DOCS_SESSION_SECRET: SECRET })).toContain('--backend "api.quad.example" is not the address of a backend: every login would go nowhere\n  fix: pass its http(s) address, e.g. --backend https://api.quad.example');
    expect(await run(['--dist', gatedDist, '--backend', 'localhost:4399'], { DOCS_SESSION_SECRET: SECRET })).toContain('e.g. --backend http://localhost:4399');
    for (const backend of ['ftp://127.0.0.1:4399', 'file:///etc/passwd', 'not a url']) expect(await run(['--dist', gatedDist, '--backend', backend], { DOCS_SESSION_SECRET: SECRET })).toContain(`--backend "${backend}" is not the address of a backend`);
    // On the development server too, named as the option the writer typed.
    expect(await run(['--root', gatedDist, '--backend', 'api.quad.example'], {})).toContain('--backend "api.quad.example" is not the address of a backend');
    expect(await run(['--dist', plainDist, '--gate', '--backend', backendUrl], { DOCS_SESSION_SECRET: SECRET })).toContain('was not built for the gate');
    // A gated build is served behind the gate without being asked to: not by accident to anyone.
    const implied = await run(['--dist', gatedDist], { DOCS_SESSION_SECRET: SECRET });
    expect(implied).toContain(`${gatedDist}: was built for the gate (gate: true or --gate), and serving it behind the gate needs --backend URL`);
    expect(implied).toContain('or --no-gate to serve it to anyone without a session');
    expect(await run(['--dist', gatedDist, '--backend', backendUrl], { DOCS_SESSION_SECRET: '' })).toContain('DOCS_SESSION_SECRET: is not set');
  });

  it('gates a gated build without --gate, and serves it to anyone only with --no-gate', async () => {
    const route = secrets[0]!;
    for (const [args, status] of [
      [['--backend', backendUrl], 401],
      [['--no-gate'], 200],
    ] as const) {
      const server = await startServe(REPO, ['--dist', gatedDist, ...args], { DOCS_SESSION_SECRET: SECRET });
      try {
        const response = await fetch(`${server.url}${encodeURI(route.route)}`);
        expect(response.status, args.join(' ')).toBe(status);
        expect((await response.text()).includes(route.text.slice(0, 30)), args.join(' ')).toBe(status === 200);
      } finally {
        await server.stop();
      }
    }
  });
});

describe('gate in site.config.ts', () => {
  it('builds for the gate when the config says gate: true, and --no-gate builds for a plain host all the same', () => {
    const site = copyFixture('basic');
    const config = join(site, 'site.config.ts');
    writeFileSync(config, readFileSync(config, 'utf8').replace('fixtureConfig()', 'fixtureConfig({ gate: true })'));
    expect(runDocs(['build'], { cwd: site }).code).toBe(0);
    expect(readFileSync(join(site, 'dist', '.docs-gate', 'index.html'), 'utf8')).toContain('data-gate-shell');
    // The runtime of a gated build sends logins to the host it came from.
    expect(readFileSync(join(site, 'dist', 'index.html'), 'utf8')).toContain('"gated":true');
    expect(runDocs(['build', '--no-gate'], { cwd: site }).code).toBe(0);
    expect(existsSync(join(site, 'dist', '.docs-gate'))).toBe(false);
    expect(readFileSync(join(site, 'dist', 'index.html'), 'utf8')).not.toContain('"gated":true');
  }, 120_000);

  it('leaves the portal ungated by default, its logins going to app.backendUrl or DOCS_BACKEND_URL (DESIGN §1), and gated with --gate', () => {
    expect(existsSync(join(plainDist, '.docs-gate'))).toBe(false);
    expect(readFileSync(join(plainDist, 'index.html'), 'utf8')).not.toContain('"gated":true');
    expect(readFileSync(join(gatedDist, '.docs-gate', 'index.html'), 'utf8')).toContain('data-gate-shell');
  });
});

describe('docs serve in development, gated by the config', () => {
  it('gates the development server when site.config.ts says gate: true, opens it with --no-gate, and follows the config when it changes', async () => {
    const site = copyFixture('basic');
    const config = join(site, 'site.config.ts');
    writeFileSync(config, readFileSync(config, 'utf8').replace('fixtureConfig()', 'fixtureConfig({ gate: true })'));
    const gated = await startServe(site);
    try {
      expect((await fetch(`${gated.url}/guide/faq`)).status).toBe(401);
      expect((await fetch(`${gated.url}/__docs/events`)).status).toBe(401);
    } finally {
      await gated.stop();
    }
    const open = await startServe(site, ['--no-gate']);
    try {
      const page = await fetch(`${open.url}/guide/faq`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Frequently asked questions');
    } finally {
      await open.stop();
    }
    // Started ungated; the writer puts the site behind the gate while it runs.
    writeFileSync(config, readFileSync(config, 'utf8').replace('fixtureConfig({ gate: true })', 'fixtureConfig()'));
    const dev = await startServe(site);
    try {
      expect((await fetch(`${dev.url}/guide/faq`)).status).toBe(200);
      writeFileSync(config, readFileSync(config, 'utf8').replace('fixtureConfig()', 'fixtureConfig({ gate: true })'));
      await dev.waitFor(/Built \d+ pages/);
      const signedOut = await fetch(`${dev.url}/guide/faq`);
      expect(signedOut.status).toBe(401);
      expect(await signedOut.text()).not.toContain('Frequently asked questions');
      // A session logged out stays ended when a config change makes the gate again (the roles in another order).
      const login = await fetch(`${dev.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'member@quad.example', password: 'docs-dev' }) });
      const cookie = login.headers.getSetCookie().find((line) => line.startsWith('docs_session='))!.split(';')[0]!;
      expect((await fetch(`${dev.url}/guide/faq`, { headers: { cookie } })).status).toBe(200);
      expect((await fetch(`${dev.url}/logout`, { method: 'POST', headers: { cookie } })).status).toBe(204);
      expect((await fetch(`${dev.url}/guide/faq`, { headers: { cookie } })).status).toBe(401);
      writeFileSync(config, readFileSync(config, 'utf8').replace('fixtureConfig({ gate: true })', "fixtureConfig({ gate: true, auth: { roles: ['quad_member', 'admin'], loginHeading: 'Log in to Quad Docs', loginButton: 'Log in with your Quad account', supportEmail: 'it@quad.example' } })"));
      await dev.waitFor(/Built \d+ pages/);
      expect((await fetch(`${dev.url}/guide/faq`, { headers: { cookie } })).status).toBe(401);
    } finally {
      await dev.stop();
    }
  }, 120_000);
});

describe('docs serve --gate in development', () => {
  it('shows a writer what a reader without a session gets, live-reload stream included, and lets the development accounts in', async () => {
    const site = copyFixture('basic');
    const dev = await startServe(site, ['--gate']);
    try {
      const signedOut = await fetch(`${dev.url}/guide/faq`);
      expect(signedOut.status).toBe(401);
      const shell = await signedOut.text();
      expect(shell).toContain('data-gate-shell');
      expect(shell).not.toContain('Frequently asked questions');
      expect((await fetch(`${dev.url}/manifest.json`)).status).toBe(401);
      // The live-reload stream names routes and quotes build errors: closed to a reader without a session.
      const stream = await fetch(`${dev.url}/__docs/events`);
      expect(stream.status).toBe(401);
      expect(stream.headers.get('content-type')).not.toContain('event-stream');
      expect(await stream.text()).toBe('Sign in first.');
      const login = await fetch(`${dev.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'member@quad.example', password: 'docs-dev' }) });
      expect(login.status).toBe(200);
      const cookie = login.headers.getSetCookie().find((line) => line.startsWith('docs_session='))!.split(';')[0]!;
      const page = await fetch(`${dev.url}/guide/faq`, { headers: { cookie } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Frequently asked questions');
      const signedIn = new AbortController();
      const live = await fetch(`${dev.url}/__docs/events`, { headers: { cookie }, signal: signedIn.signal });
      expect(live.status).toBe(200);
      expect(live.headers.get('content-type')).toContain('text/event-stream');
      signedIn.abort();
      // The development secret outlives the server: a writer who restarts it stays signed in.
      await dev.stop();
      const again = await startServe(site, ['--gate']);
      try {
        expect((await fetch(`${again.url}/guide/faq`, { headers: { cookie } })).status).toBe(200);
        expect((await fetch(`${again.url}/guide/faq`)).status).toBe(401);
      } finally {
        await again.stop();
      }
    } finally {
      await dev.stop();
    }
  }, 60_000);
});
