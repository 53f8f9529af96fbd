/**
 * The gate's sessions against someone who holds a cookie and wants more than it gives: variants of a
 * logged-out cookie, a reader logging out over and over to make the host forget other logouts, a
 * burst of guesses sent at once, a login answer that is not complete. The gate (cli/serve/gate.ts) runs
 * on a plain local server with a login function of the test's own, so each rule is seen on the wire.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { backendLogin, createGate, MAX_FAILURES, type LoginAnswer } from '../../cli/serve/gate';
import { MAX_ENDED_PER_READER } from '../../cli/serve/sessions';
import { createStaticHandler } from '../../cli/serve/static-files';

const SECRET = Buffer.from('a test secret that is long enough for the gate, 48 bytes');
const json = (status: number, body: unknown): LoginAnswer => ({ status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) });
const admitted = (email: string, fields: Record<string, string> = {}): LoginAnswer => json(200, { data: { user: { email, roles: ['quad_member'] }, client: 'c', access_token: 't', ...fields } });

/** A gated host on a free port whose logins answer `answerFor`; `calls` counts what reached the backend. */
interface Host {
  url: string;
  calls: number;
  /** The headers of the last login the backend got. */
  forwarded: Record<string, string>;
  answerFor: (email: string, signal?: AbortSignal) => LoginAnswer | Promise<LoginAnswer>;
}
const servers: Server[] = [];

async function startHost(trustProxy = false): Promise<Host> {
  const host: Host = { url: '', calls: 0, forwarded: {}, answerFor: (email) => admitted(email) };
  const gate = createGate({
    trustProxy,
    secret: SECRET,
    roles: ['admin', 'quad_member'],
    sessionSeconds: 3600,
    logoutPath: '/logout',
    login: async ({ headers, body, signal }) => {
      host.calls++;
      host.forwarded = headers;
      return host.answerFor((JSON.parse(body.toString('utf8')) as { email: string }).email, signal);
    },
    serve: (_request, response) => void response.writeHead(200, { 'content-type': 'text/html' }).end('<p>the documentation</p>'),
  });
  const server = createServer((request, response) => gate.handle(request, response));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return host;
}

afterAll(() => Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())))));

async function logIn(host: Host, email: string): Promise<{ status: number; cookie?: string }> {
  const response = await fetch(`${host.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'pw' }) });
  await response.arrayBuffer();
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('docs_session='))?.split(';')[0];
  return { status: response.status, cookie };
}
const logOut = async (host: Host, cookie: string): Promise<number> => (await fetch(`${host.url}/logout`, { method: 'POST', headers: { cookie } })).status;
const page = async (host: Host, cookie: string): Promise<number> => {
  const response = await fetch(`${host.url}/guide`, { headers: { cookie } });
  await response.arrayBuffer();
  return response.status;
};

describe('a logged-out session stays ended', () => {
  it('under any other spelling of its cookie: padding, characters base64url skips, the spare bits of the last letter', async () => {
    const host = await startHost();
    const { cookie } = await logIn(host, 'member@quad.example');
    const variants = (value: string): string[] => {
      // The last of 43 letters carries 4 bits of the signature and 2 spare ones: its neighbours decode alike.
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const at = alphabet.indexOf(value.at(-1)!);
      return [`${value}=`, `${value}!`, `${value}~`, `${value}$`, ...[1, 2, 3].map((bits) => value.slice(0, -1) + alphabet[at ^ bits]!)];
    };
    // Before the logout no variant is a session either: only the spelling the host wrote opens pages.
    expect(await page(host, cookie!)).toBe(200);
    for (const variant of variants(cookie!)) expect(await page(host, variant), variant).toBe(401);
    expect(await logOut(host, cookie!)).toBe(204);
    for (const variant of [cookie!, ...variants(cookie!)]) expect(await page(host, variant), variant).toBe(401);
  });

  it('however often another reader, or the same one, logs in and out afterwards', async () => {
    const host = await startHost();
    const victim = (await logIn(host, 'victim@quad.example')).cookie!;
    const otherMachine = (await logIn(host, 'attacker@quad.example')).cookie!;
    expect(await logOut(host, victim)).toBe(204);
    // More logouts than the host remembers for one reader, all by one account.
    for (let round = 0; round < MAX_ENDED_PER_READER + 5; round++) expect(await logOut(host, (await logIn(host, 'attacker@quad.example')).cookie!)).toBe(204);
    expect(await page(host, victim)).toBe(401);
    // Past the limit the host ends every session that reader began before: none of them comes back, and
    // the reader can still log in again.
    expect(await page(host, otherMachine)).toBe(401);
    const fresh = (await logIn(host, 'attacker@quad.example')).cookie!;
    expect(await page(host, fresh)).toBe(200);
  }, 60_000);
});

describe('logins', () => {
  it(`let at most ${MAX_FAILURES} guesses from one address reach the backend, even sent all at once`, async () => {
    const host = await startHost();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    host.answerFor = async () => {
      await held;
      return json(401, { errors: ['Invalid login credentials.'] });
    };
    const burst = Array.from({ length: 40 }, () => logIn(host, 'admin@quad.example'));
    // Every request is in before the backend answers any.
    while (host.calls < MAX_FAILURES) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    const statuses = (await Promise.all(burst)).map((answer) => answer.status);
    expect(host.calls).toBe(MAX_FAILURES);
    expect(statuses.filter((status) => status === 401)).toHaveLength(MAX_FAILURES);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40 - MAX_FAILURES);
  });

  it('count no request for the one-time code as a failed login, but count wrong codes', async () => {
    const host = await startHost();
    // An account with a second factor: the backend asks for the code whenever none (or a wrong one) is sent (spec §4).
    host.answerFor = (email) => (email === 'admin@x' ? json(401, { need_otp: true }) : admitted(email));
    const post = async (body: Record<string, string>): Promise<number> => {
      const response = await fetch(`${host.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await response.arrayBuffer();
      return response.status;
    };
    // Twice as many first steps as the limit, from one address (an office behind one NAT): each asks for the code.
    for (let i = 0; i < 2 * MAX_FAILURES; i++) expect(await post({ email: 'admin@x', password: 'right' })).toBe(401);
    expect(await post({ email: 'admin@x', password: 'right', otp_attempt: '' })).toBe(401);
    expect(await post({ email: 'member@x', password: 'right' })).toBe(200);
    // A wrong code is a failed login: the limit holds for guesses at the code.
    for (let i = 0; i < MAX_FAILURES; i++) expect(await post({ email: 'admin@x', password: 'right', otp_attempt: String(100000 + i) })).toBe(401);
    expect(await post({ email: 'admin@x', password: 'right', otp_attempt: '123456' })).toBe(429);
    expect(await post({ email: 'member@x', password: 'right' })).toBe(429);
  });

  it('behind a trusted proxy, count failures by the address it forwards: ten wrong passwords from one reader lock out no other', async () => {
    const host = await startHost(true);
    host.answerFor = (email) => (email === 'attacker@x' ? json(401, { errors: ['Invalid login credentials.'] }) : admitted(email));
    // Every request comes from the proxy (127.0.0.1 here); nginx appends the reader's address.
    const from = (address: string, email: string): Promise<Response> =>
      fetch(`${host.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': address }, body: JSON.stringify({ email, password: 'pw' }) });
    for (let i = 0; i < MAX_FAILURES; i++) expect((await from('203.0.113.7', 'attacker@x')).status).toBe(401);
    expect((await from('203.0.113.7', 'attacker@x')).status).toBe(429);
    // A reader elsewhere signs in; an address written before the proxy's own (a client's claim) changes nothing for the attacker.
    expect((await from('198.51.100.2', 'member@x')).status).toBe(200);
    expect((await from('198.51.100.2, 203.0.113.7', 'attacker@x')).status).toBe(429);
    // The backend hears the proxy too, after the reader.
    await from('198.51.100.2', 'member@x');
    expect(host.forwarded['x-forwarded-for']).toBe('198.51.100.2, 127.0.0.1');
    // Not trusted (the default), the header is a client's word: the connection counts.
    const direct = await startHost();
    direct.answerFor = () => json(401, { errors: ['Invalid login credentials.'] });
    for (let i = 0; i < MAX_FAILURES; i++) await fetch(`${direct.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': `192.0.2.${i}` }, body: '{"email":"a@x","password":"pw"}' });
    expect((await fetch(`${direct.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.99' }, body: '{"email":"a@x","password":"pw"}' })).status).toBe(429);
  });

  it('give no session when the answer leaves uid, client or token empty (spec §4: all set)', async () => {
    const host = await startHost();
    for (const fields of [{ client: '' }, { access_token: '' }] as Record<string, string>[]) {
      host.answerFor = (email) => admitted(email, fields);
      expect((await logIn(host, 'member@quad.example')).cookie).toBeUndefined();
    }
    host.answerFor = () => json(200, { data: { user: { email: '', roles: ['quad_member'] }, client: 'c', access_token: 't' } });
    expect((await logIn(host, 'member@quad.example')).cookie).toBeUndefined();
    host.answerFor = (email) => admitted(email);
    expect((await logIn(host, 'member@quad.example')).cookie).toMatch(/^docs_session=/);
  });

  it("send the backend the login's own headers: not the host's session, and the reader's address after any a proxy gave", async () => {
    const host = await startHost();
    const { cookie } = await logIn(host, 'member@quad.example');
    const response = await fetch(`${host.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `theme=dark; ${cookie!}; backend_csrf=abc`, 'x-forwarded-for': '6.6.6.6' },
      body: JSON.stringify({ email: 'member@quad.example', password: 'pw' }),
    });
    expect(response.status).toBe(200);
    expect(host.forwarded.cookie).toBe('theme=dark; backend_csrf=abc');
    expect(host.forwarded['x-forwarded-for']).toBe('6.6.6.6, 127.0.0.1');
    await fetch(`${host.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: cookie! }, body: '{"email":"m@x","password":"pw"}' });
    expect(host.forwarded.cookie).toBeUndefined();
    expect(host.forwarded['x-forwarded-for']).toBe('127.0.0.1');
  });

  it(`give an abandoned login's turn back at once: ${MAX_FAILURES} readers who gave up on a slow backend lock no one out`, async () => {
    const host = await startHost();
    // A backend that answers only when the host cancels its call.
    host.answerFor = (email, signal) => (email === 'slow@x' ? new Promise((resolve) => signal?.addEventListener('abort', () => resolve(json(504, {})))) : admitted(email));
    const readers = Array.from({ length: MAX_FAILURES }, () => new AbortController());
    const tries = readers.map((reader) => fetch(`${host.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":"slow@x","password":"pw"}', signal: reader.signal }).catch(() => undefined));
    while (host.calls < MAX_FAILURES) await new Promise((resolve) => setTimeout(resolve, 10));
    for (const reader of readers) reader.abort();
    await Promise.all(tries);
    // The right password from the same address gets in, as soon as the host heard they left.
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = (await logIn(host, 'member@x')).status;
    }
    expect(status).toBe(200);
  });

  it('hold no turn while a body is still arriving, and say "waiting", not "failed", when logins in flight fill the turns', async () => {
    const host = await startHost();
    const port = Number(new URL(host.url).port);
    // Connections that announce 100 bytes of body and send four.
    const slow: Socket[] = await Promise.all(Array.from({ length: MAX_FAILURES }, () => new Promise<Socket>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write('POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"em');
        resolve(socket);
      });
    })));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await logIn(host, 'member@x')).status).toBe(200);
    for (const socket of slow) socket.destroy();
    // Ten logins still waiting for the backend: the eleventh is told why.
    const release: (() => void)[] = [];
    host.answerFor = (email) => (email === 'slow@x' ? new Promise((resolve) => release.push(() => resolve(json(401, {})))) : admitted(email));
    const waiting = Array.from({ length: MAX_FAILURES }, () => fetch(`${host.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":"slow@x","password":"pw"}' }));
    while (release.length < MAX_FAILURES) await new Promise((resolve) => setTimeout(resolve, 10));
    const eleventh = await fetch(`${host.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":"member@x","password":"pw"}' });
    expect(eleventh.status).toBe(429);
    expect(await eleventh.text()).toContain('waiting for the login service');
    for (const go of release) go();
    await Promise.all(waiting);
  });
});

describe('the backend call', () => {
  it('passes no redirect on: the browser would send the password again, to wherever it points', async () => {
    const backend = createServer((_request, response) => void response.writeHead(307, { location: 'https://elsewhere.example/api/login' }).end());
    servers.push(backend);
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
    const answer = await backendLogin(`http://127.0.0.1:${(backend.address() as AddressInfo).port}`)({ headers: { 'content-type': 'application/json' }, body: Buffer.from('{"email":"m@x","password":"pw"}') });
    expect(answer.status).toBe(502);
    expect(answer.headers.location).toBeUndefined();
  });
});

describe('a gated host whose folder lost its sign-in shell', () => {
  it('answers a signed-out reader plainly, never with the site\'s 404 page and its announcement (a folder rebuilt without the gate)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-noshell-'));
    writeFileSync(join(dir, '404.html'), '<html><body><div class="announcement">Working a 24urenloop shift? Read the runbook</div></body></html>');
    mkdirSync(join(dir, 'guide'));
    writeFileSync(join(dir, 'guide/index.html'), '<p>the documentation</p>');
    const gate = createGate({ secret: SECRET, roles: ['quad_member'], sessionSeconds: 3600, logoutPath: '/logout', login: async () => admitted('m@x'), serve: createStaticHandler(dir) });
    const server = createServer((request, response) => gate.handle(request, response));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    for (const path of ['/guide', '/no/such/page']) {
      const response = await fetch(url + path);
      expect(response.status, path).toBe(401);
      const body = await response.text();
      expect(body, path).not.toContain('24urenloop');
      expect(body, path).not.toContain('the documentation');
    }
  });
});
