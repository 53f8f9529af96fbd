import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyCredentials, isAuthenticated, parsePersisted, serialiseCredentials, type Credentials } from '../../../../runtime/auth/credentials';
import { createHttpClient, HTTP_DEFAULTS, requestHeaders, type HttpClientOptions } from '../../../../runtime/auth/http';
import { canSubmit, logIn, loginRequest } from '../../../../runtime/auth/login';
import { createAuthSession } from '../../../../runtime/auth/session';
import { createAuthStore } from '../../../../runtime/auth/store';
import type { SiteData } from '../../../../runtime/manifest';
import type { AppConfig } from '../../../../runtime/manifest';
import { fixtureConfig } from '../../../fixtures/_shared/config';

const ROLES = ['admin', 'quad_member'];
const member: Credentials = { uid: 'ada@quad.example', client: 'c1', accessToken: 't1', roles: ['quad_member'] };

function memoryStorage(initial: Record<string, string> = {}): { getItem: (key: string) => string | null; setItem: (key: string, value: string) => void; data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return { data, getItem: (key) => data.get(key) ?? null, setItem: (key, value) => void data.set(key, value) };
}

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

describe('runtime/auth/credentials', () => {
  it('admits complete credentials with the admin or quad_member role', () => {
    expect(isAuthenticated(member, ROLES)).toBe(true);
    expect(isAuthenticated({ ...member, roles: ['admin'] }, ROLES)).toBe(true);
    expect(isAuthenticated({ ...member, roles: ['alumnus', 'quad_member'] }, ROLES)).toBe(true);
  });

  it('refuses other roles, no roles, and any missing field', () => {
    expect(isAuthenticated({ ...member, roles: ['alumnus'] }, ROLES)).toBe(false);
    expect(isAuthenticated({ ...member, roles: ['Quad_Member'] }, ROLES)).toBe(false);
    expect(isAuthenticated({ ...member, roles: [] }, ROLES)).toBe(false);
    for (const field of ['uid', 'client', 'accessToken'] as const) {
      expect(isAuthenticated({ ...member, [field]: null }, ROLES), field).toBe(false);
      expect(isAuthenticated({ ...member, [field]: '' }, ROLES), field).toBe(false);
    }
    expect(isAuthenticated(null, ROLES)).toBe(false);
    expect(isAuthenticated(emptyCredentials(), ROLES)).toBe(false);
  });

  it('persists as {state, version: 0} and reads anything else as signed out', () => {
    expect(JSON.parse(serialiseCredentials(member))).toEqual({ state: member, version: 0 });
    expect(parsePersisted(serialiseCredentials(member))).toEqual(member);
    expect(parsePersisted(JSON.stringify({ state: member, version: 1 }))).toEqual(emptyCredentials());
    expect(parsePersisted(JSON.stringify(member))).toEqual(emptyCredentials());
    expect(parsePersisted('{not json')).toEqual(emptyCredentials());
    expect(parsePersisted(null)).toEqual(emptyCredentials());
  });
});

describe('runtime/auth/store', () => {
  it('starts from storage, and setting credentials stores them', async () => {
    const storage = memoryStorage({ docs: serialiseCredentials(member) });
    const store = createAuthStore({ key: 'docs', storage });
    expect(store.state.uid).toBe('ada@quad.example');
    store.setCredentials({ ...member, uid: 'grace@quad.example', roles: ['admin'] });
    await tick();
    expect(JSON.parse(storage.data.get('docs')!)).toEqual({ state: { ...member, uid: 'grace@quad.example', roles: ['admin'] }, version: 0 });
  });

  it('clearing empties uid, client and accessToken but leaves roles; reset empties roles too', async () => {
    const storage = memoryStorage();
    const store = createAuthStore({ key: 'docs', storage });
    store.setCredentials(member);
    store.clearCredentials();
    await tick();
    expect(JSON.parse(storage.data.get('docs')!).state).toEqual({ uid: null, client: null, accessToken: null, roles: ['quad_member'] });
    store.reset();
    store.persist();
    expect(JSON.parse(storage.data.get('docs')!).state).toEqual(emptyCredentials());
  });

  it('follows storage written by another tab without writing it back', async () => {
    const storage = memoryStorage({ docs: serialiseCredentials(member) });
    const store = createAuthStore({ key: 'docs', storage });
    let writes = 0;
    const setItem = storage.setItem;
    storage.setItem = (key, value) => {
      writes++;
      setItem(key, value);
    };
    storage.data.set('docs', serialiseCredentials(emptyCredentials()));
    store.reload();
    await tick();
    expect(store.state.uid).toBeNull();
    expect(writes).toBe(0);
  });
});

/** The application configuration of spec §3, as the fixtures (and the portal) declare it. */
const app: AppConfig = fixtureConfig().app;

function client(overrides: Partial<HttpClientOptions> = {}): HttpClientOptions {
  return { baseUrl: 'https://api.quad.example', app, brand: 'Quad', credentials: emptyCredentials, roles: ROLES, origin: 'https://docs.quad.example', cookies: () => 'XSRF-TOKEN=abc%3D; other=1', ...overrides };
}

describe('runtime/auth/http', () => {
  it('sends the JSON, version and language headers on every call', () => {
    expect(requestHeaders(client(), new URL('https://api.quad.example/api/login'))).toEqual({
      Accept: 'application/json',
      'Content-Type': 'application/json',
      'X-Quad-Version': 'WEB/4.0.0 (1)',
      'Accept-Language': 'en',
    });
  });

  it('adds access-token, client and uid when signed in', () => {
    expect(requestHeaders(client({ credentials: () => member }), new URL('https://api.quad.example/x'))).toMatchObject({ 'access-token': 't1', client: 'c1', uid: 'ada@quad.example' });
    expect(requestHeaders(client({ credentials: () => ({ ...member, accessToken: null }) }), new URL('https://api.quad.example/x'))['access-token']).toBeUndefined();
    // Stored, but not signed in: an account whose roles do not count (spec §4) sends none of them.
    const alumnus = requestHeaders(client({ credentials: () => ({ ...member, roles: ['alumnus'] }) }), new URL('https://api.quad.example/api/login'));
    expect(Object.keys(alumnus).filter((name) => ['access-token', 'client', 'uid'].includes(name))).toEqual([]);
  });

  it('returns the XSRF-TOKEN cookie as X-XSRF-TOKEN on same-origin calls only', () => {
    expect(requestHeaders(client(), new URL('https://docs.quad.example/api/login'))['X-XSRF-TOKEN']).toBe('abc=');
    expect(requestHeaders(client(), new URL('https://api.quad.example/api/login'))['X-XSRF-TOKEN']).toBeUndefined();
    expect(HTTP_DEFAULTS).toEqual({ timeoutMs: 0, xsrfCookieName: 'XSRF-TOKEN', xsrfHeaderName: 'X-XSRF-TOKEN', streamChunkBytes: 65_536 });
  });

  it('tells 401 with need_otp, other 401s and other failures apart', async () => {
    const answer = (status: number, body: string) => async () => new Response(body, { status });
    const call = (fetch: () => Promise<Response>) => createHttpClient(client({ fetch: fetch as typeof globalThis.fetch })).request('POST', 'api/login', {});
    expect(await call(answer(401, '{"need_otp":true}'))).toEqual({ kind: 'unauthorised', needOtp: true });
    expect(await call(answer(401, '{"errors":["no"]}'))).toEqual({ kind: 'unauthorised', needOtp: false });
    expect(await call(answer(500, '{}'))).toMatchObject({ kind: 'failed', status: 500 });
    expect(await call(answer(200, '<html>'))).toMatchObject({ kind: 'failed', status: 200 });
    expect(await call(() => Promise.reject(new TypeError('Failed to fetch')))).toEqual({ kind: 'failed', reason: 'Failed to fetch' });
    expect(await call(answer(200, '{"ok":1}'))).toEqual({ kind: 'ok', status: 200, data: { ok: 1 } });
  });

  it('posts to the configured base address with the body as JSON and no timeout signal', async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const fetch = async (url: string | URL | Request, init?: RequestInit) => {
      seen.push({ url: String(url), init: init! });
      return new Response('{}', { status: 200 });
    };
    await createHttpClient(client({ baseUrl: 'https://api.quad.example/v2', fetch: fetch as typeof globalThis.fetch })).request('POST', 'api/login', { email: 'a' });
    expect(seen[0]!.url).toBe('https://api.quad.example/v2/api/login');
    expect(seen[0]!.init.body).toBe('{"email":"a"}');
    expect(seen[0]!.init.signal).toBeUndefined();
  });
});

describe('runtime/auth/login', () => {
  it('submits only with e-mail and password, and sends otp_attempt only while the field shows', () => {
    expect(canSubmit({ email: '', password: 'x', otp: '' })).toBe(false);
    expect(canSubmit({ email: 'a', password: '', otp: '' })).toBe(false);
    expect(canSubmit({ email: 'a', password: 'x', otp: '' })).toBe(true);
    expect(loginRequest({ email: 'a', password: 'x', otp: '1' }, false)).toEqual({ email: 'a', password: 'x' });
    expect(loginRequest({ email: 'a', password: 'x', otp: '1' }, true)).toEqual({ email: 'a', password: 'x', otp_attempt: '1' });
  });

  it('maps every answer to the error catalogue', async () => {
    const with_ = (result: unknown) => ({ request: async () => result }) as never;
    const form = { email: 'a', password: 'x', otp: '' };
    expect(await logIn(with_({ kind: 'unauthorised', needOtp: true }), form, false)).toEqual({ kind: 'otp-required' });
    expect(await logIn(with_({ kind: 'unauthorised', needOtp: true }), form, true)).toEqual({ kind: 'error', error: 'otp' });
    expect(await logIn(with_({ kind: 'unauthorised', needOtp: false }), form, true)).toEqual({ kind: 'error', error: 'credentials' });
    expect(await logIn(with_({ kind: 'failed', reason: 'x' }), form, false)).toEqual({ kind: 'error', error: 'network' });
    expect(await logIn(with_({ kind: 'ok', status: 200, data: {} }), form, false)).toEqual({ kind: 'error', error: 'network' });
    const ok = { kind: 'ok', status: 200, data: { data: { user: { email: 'a@quad.example', roles: ['admin'] }, client: 'c', access_token: 't' } } };
    expect(await logIn(with_(ok), form, false)).toEqual({ kind: 'signed-in', credentials: { uid: 'a@quad.example', client: 'c', accessToken: 't', roles: ['admin'] } });
    // A 200 whose uid, client or token is empty signs no one in: "any other login failure", not a missing role.
    for (const empty of [{ client: '' }, { access_token: '' }, { user: { email: '', roles: ['admin'] } }]) {
      const answer = { ...ok, data: { data: { ...ok.data.data, ...empty } } };
      expect(await logIn(with_(answer), form, false)).toEqual({ kind: 'error', error: 'network' });
    }
  });
});

describe('runtime/auth/session: logging out of a gated site', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  const gatedSite = { gated: true, auth: { storageKey: 'quad-docs-auth' }, app: { logoutPath: '/logout' } } as unknown as SiteData;

  it('asks the host again when it did not confirm the logout, and signs out once it did', async () => {
    vi.useFakeTimers();
    const answers = [503, 502, 204];
    const fetch = vi.fn(async (_path: string, _init?: RequestInit) => new Response(null, { status: answers.shift() ?? 204 }));
    const reload = vi.fn();
    const storage = memoryStorage({ 'quad-docs-auth': serialiseCredentials(member) });
    vi.stubGlobal('fetch', fetch);
    vi.stubGlobal('location', { reload });
    vi.stubGlobal('window', { localStorage: storage });
    createAuthSession(gatedSite).logOut();
    await vi.runAllTimersAsync();
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(fetch.mock.calls.every(([path, init]) => path === '/logout' && init?.method === 'POST')).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(parsePersisted(storage.data.get('quad-docs-auth')!).uid).toBeNull();
  });

  it('asks no more than three times, then signs out the page all the same (spec §4)', async () => {
    vi.useFakeTimers();
    const fetch = vi.fn(async () => Promise.reject(new TypeError('network down')));
    const reload = vi.fn();
    vi.stubGlobal('fetch', fetch);
    vi.stubGlobal('location', { reload });
    vi.stubGlobal('window', { localStorage: memoryStorage({ 'quad-docs-auth': serialiseCredentials(member) }) });
    createAuthSession(gatedSite).logOut();
    await vi.runAllTimersAsync();
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
