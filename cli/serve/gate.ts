/**
 * The gate on the wire: a host in front of a gated build (`docs build --gate`) that sends the text of
 * the documentation only to a reader with a session. The session is a cookie the host signs itself
 * when the backend admits a login (`POST /api/login`, the one call the backend offers, forwarded
 * unchanged); everything the host knows travels in that cookie, so any number of copies with the same
 * secret can run behind a load balancer. Without a session every route answers the sign-in shell and
 * every other file of the build answers 401, except the runtime's own code (default deny).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { DocsError } from '../util/errors';
import { isLoopback } from './host-check';
import { loginBody } from './login-call';
import { badTarget, requestUrl } from './request-url';
export { backendLogin } from './login-call';
import { EndedSessions, sessionOf, signSession } from './sessions';
import type { ServeCall } from './static-files';

/** Name of the session cookie. */
export const SESSION_COOKIE = 'docs_session';
/** Where a gated build keeps its sign-in shell (a dot-folder: no route can take the name). */
export const SHELL_DIR = '.docs-gate';
/** Default lifetime of a session. */
export const DEFAULT_SESSION_DAYS = 30;
/** Failed logins from one address within `RATE_WINDOW_MS` after which the host answers 429 itself. */
export const MAX_FAILURES = 10;
export const RATE_WINDOW_MS = 60_000;

/**
 * The files anyone may fetch: the runtime's own code and styles, and the site icon. Nothing of the
 * documentation is in them; everything else of a build (pages, page data, manifest, images, linked
 * files, a search index, anything added later) needs a session. One rule, default deny.
 */
export function isPublicPath(pathname: string): boolean {
  return pathname === '/favicon.svg' || /^\/assets\/(?:app\.[A-Za-z0-9_-]+\.(?:js|css)|chunks\/[A-Za-z0-9_.-]+\.js)$/.test(pathname);
}

/**
 * True for a request of a file rather than a page: a path with an extension other than `.html`, unless
 * the browser is opening it as a page (a route may hold a dot: `/onboarding/release-2.0`).
 */
function isFileRequest(request: IncomingMessage, pathname: string): boolean {
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  if (!last.includes('.') || /\.html?$/i.test(last)) return false;
  return request.headers['sec-fetch-dest'] !== 'document' && !/\btext\/html\b/.test(String(request.headers.accept ?? ''));
}

/** The secret from `DOCS_SESSION_SECRET`; a usage error when it is missing or shorter than 32 bytes. */
export function sessionSecret(env: Record<string, string | undefined>): Buffer {
  const value = env.DOCS_SESSION_SECRET ?? '';
  if (Buffer.byteLength(value) < 32) {
    throw new DocsError('usage', [
      {
        file: 'DOCS_SESSION_SECRET',
        message: value === '' ? 'is not set; the gate signs its session cookies with it' : `is ${Buffer.byteLength(value)} bytes long; the gate needs at least 32`,
        fix: 'set it to a long random value shared by every copy of the host, e.g. DOCS_SESSION_SECRET=$(openssl rand -base64 48)',
      },
    ]);
  }
  return Buffer.from(value);
}

/** The value of cookie `name` in a request. */
function cookieOf(request: IncomingMessage, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** True when the request reached us over plain HTTP from this machine (a developer, a test). */
function isLoopbackHttp(request: IncomingMessage): boolean {
  const address = request.socket.remoteAddress ?? '';
  const encrypted = (request.socket as { encrypted?: boolean }).encrypted === true;
  return !encrypted && isLoopback(address);
}

/** What a login answered, as the gate passes it on. */
export interface LoginAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Options of `createGate`. */
export interface GateOptions {
  secret: Buffer;
  /** Roles that admit a reader (the site's `auth.roles`). */
  roles: string[];
  /** Session lifetime in seconds. */
  sessionSeconds: number;
  /** Path of the logout call (the app config's `logoutPath`). */
  logoutPath: string;
  /** Answers a login: the backend, or the development accounts. `signal` aborts it when the reader went away. */
  login: (request: { headers: Record<string, string>; body: Buffer; signal?: AbortSignal }) => Promise<LoginAnswer>;
  /** Serves a file of the build (the static handler). */
  serve: (request: IncomingMessage, response: ServerResponse, call?: ServeCall) => void;
  /** The clock, in milliseconds. @default Date.now */
  now?: () => number;
  /** The logouts to remember, when a gate made before this one (`docs serve`, its config changed) took some. */
  ended?: EndedSessions;
  /**
   * The host is behind a proxy that adds the reader's address to X-Forwarded-For: failed logins are
   * counted by the last address there, not by the connection's (the proxy's, the same for every reader,
   * whom ten wrong passwords from anyone locked out). Off, the header is not believed: a client could
   * write any address in it.
   */
  trustProxy?: boolean;
}

/** A gate: `handle` answers a request, `true` when it did (the caller serves nothing else then). */
export interface Gate {
  handle: (request: IncomingMessage, response: ServerResponse) => void;
  /** True when the request carries a valid session (for what the server answers itself: `docs serve`'s live-reload stream). */
  signedIn: (request: IncomingMessage) => boolean;
}

/** Creates the gate (see the module comment for the rules). */
export function createGate(options: GateOptions): Gate {
  const now = options.now ?? Date.now;
  /** Failed logins by address: their times, within the window. */
  const failures = new Map<string, number[]>();
  /** Sessions logged out (sessions.ts), a cookie copied before the logout opens nothing on this host. */
  const ended = options.ended ?? new EndedSessions(options.sessionSeconds, now);
  /** Logins from one address still waiting for the backend: they count towards `MAX_FAILURES` until it answers. */
  const pending = new Map<string, number>();

  const recentFailures = (address: string): number[] => {
    const list = (failures.get(address) ?? []).filter((at) => at > now() - RATE_WINDOW_MS);
    if (list.length === 0) failures.delete(address);
    else failures.set(address, list);
    return list;
  };

  // Secure unless the reader is on this machine over plain HTTP; a TLS proxy in front says so in X-Forwarded-Proto.
  const cookie = (request: IncomingMessage, value: string, maxAge: number): string =>
    `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${isLoopbackHttp(request) && request.headers['x-forwarded-proto'] !== 'https' ? '' : '; Secure'}`;

  /** Who is logging in, as far as failures are counted (see `GateOptions.trustProxy`). */
  const readerAddress = (request: IncomingMessage): string => {
    const connection = request.socket.remoteAddress ?? '';
    if (!options.trustProxy) return connection;
    const forwarded = String(request.headers['x-forwarded-for'] ?? '').split(',').map((part) => part.trim()).filter((part) => part !== '');
    return forwarded.at(-1) ?? connection;
  };

  const login = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const address = readerAddress(request);
    // The body first: a client that sends it slowly waits on its own, holding no one else's turn.
    const body = await loginBody(request, response);
    if (body === undefined) return;
    const recent = recentFailures(address);
    // A login still waiting for the backend may fail too: many sent at once must not all get through.
    const waiting = pending.get(address) ?? 0;
    if (recent.length + waiting >= MAX_FAILURES) {
      const failed = recent.length >= MAX_FAILURES;
      const retry = failed ? Math.max(1, Math.ceil((recent[0]! + RATE_WINDOW_MS - now()) / 1000)) : 1;
      const text = failed ? 'Too many failed logins. Please wait a minute and try again.' : 'Too many logins from this address are waiting for the login service. Please try again in a moment.';
      response.writeHead(429, { 'content-type': 'application/json; charset=utf-8', 'retry-after': String(retry), 'cache-control': 'no-store' }).end(JSON.stringify({ errors: [text] }));
      return;
    }
    pending.set(address, waiting + 1);
    // A reader who gave up (closed the tab, lost the network) waits for nothing: the backend's call is
    // cancelled, and its turn given back at once, not when the backend answers (if ever).
    const abandoned = new AbortController();
    const gone = (): void => {
      if (!response.writableEnded) abandoned.abort();
    };
    response.once('close', gone);
    try {
      await answerLogin(request, response, address, body, abandoned.signal);
    } finally {
      response.off('close', gone);
      const left = (pending.get(address) ?? 1) - 1;
      if (left > 0) pending.set(address, left);
      else pending.delete(address);
    }
  };

  const answerLogin = async (request: IncomingMessage, response: ServerResponse, address: string, body: Buffer, signal: AbortSignal): Promise<void> => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[name] = value;
    // The host's own session is no business of the backend's (a 30-day credential in its logs); the
    // backend's cookies go back to it. The reader's address is added to what any proxy before said.
    const cookies = (headers.cookie ?? '').split(';').filter((part) => part.trim() !== '' && part.split('=')[0]!.trim() !== SESSION_COOKIE);
    if (cookies.length > 0) headers.cookie = cookies.map((part) => part.trim()).join('; ');
    else delete headers.cookie;
    const peer = request.socket.remoteAddress ?? '';
    headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${peer}` : peer;
    const answer = await options.login({ headers, body, signal });
    if (signal.aborted) return void response.destroy();
    const out: OutgoingHttpHeaders = { ...answer.headers, 'cache-control': 'no-store' };
    const backendCookies = answer.headers['set-cookie']?.split('\n') ?? [];
    delete out['set-cookie'];
    const setCookies = [...backendCookies];
    if (answer.status >= 200 && answer.status < 300) {
      const uid = admittedUid(answer.body, options.roles);
      if (uid !== undefined) setCookies.push(cookie(request, signSession(options.secret, uid, Math.floor(now() / 1000) + options.sessionSeconds, now()), options.sessionSeconds));
    } else if (answer.status === 403 || (answer.status === 401 && !asksForCode(answer.body, body))) {
      failures.set(address, [...recentFailures(address), now()]);
    }
    if (setCookies.length > 0) out['set-cookie'] = setCookies;
    response.writeHead(answer.status, out).end(answer.body);
  };

  const signedIn = (request: IncomingMessage): boolean => {
    const seconds = Math.floor(now() / 1000);
    const session = sessionOf(options.secret, cookieOf(request, SESSION_COOKIE), seconds);
    return session !== undefined && !ended.has(session, seconds);
  };

  return {
    signedIn,
    handle(request, response) {
      const url = requestUrl(request);
      if (!url) return badTarget(response);
      const session = url.pathname === '/api/login' || url.pathname === options.logoutPath;
      if (session && request.method === 'POST') {
        const refused = crossSiteProblem(request, url.pathname === '/api/login');
        if (refused) {
          response.writeHead(refused.status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end(refused.text);
          return;
        }
      }
      if (url.pathname === '/api/login' && request.method === 'POST') {
        void login(request, response).catch(() => {
          if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
          response.end('The login could not be completed.');
        });
        return;
      }
      if (url.pathname === options.logoutPath && request.method === 'POST') {
        const seconds = Math.floor(now() / 1000);
        const session = sessionOf(options.secret, cookieOf(request, SESSION_COOKIE), seconds);
        if (session && !ended.has(session, seconds)) ended.add(session, seconds);
        response.writeHead(204, { 'set-cookie': cookie(request, '', 0), 'cache-control': 'no-store' }).end();
        return;
      }
      let pathname = url.pathname;
      try {
        pathname = decodeURIComponent(url.pathname);
      } catch {
        // The static handler answers 400.
      }
      // A public path with no file is a plain 404: the site's 404.html is a page of the site (its
      // layout shows the announcement), not for a reader without a session.
      if (isPublicPath(pathname)) return options.serve(request, response, { plainNotFound: true });
      if (signedIn(request)) {
        // Documentation: never kept by a shared cache, and never mixed with a signed-out answer.
        return options.serve(request, withHeaders(response, (status, headers) => {
          const cache = String(headers['cache-control'] ?? 'no-cache');
          headers['cache-control'] = cache.includes('public') ? cache.replace('public', 'private') : `private, ${cache}`;
          headers.vary = headers.vary ? `${String(headers.vary)}, cookie` : 'cookie';
          return status;
        }));
      }
      if (isFileRequest(request, pathname) || request.method !== 'GET' && request.method !== 'HEAD') {
        response.writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', vary: 'cookie' }).end('Sign in first.');
        return;
      }
      // Every route, known or not: the sign-in shell, which holds no text of the documentation.
      request.url = `/${SHELL_DIR}/`;
      options.serve(
        request,
        withHeaders(response, (_status, headers) => {
          headers['cache-control'] = 'no-store';
          headers.vary = headers.vary ? `${String(headers.vary)}, cookie` : 'cookie';
          delete headers.etag;
          return 401;
        }),
        // A folder rebuilt without the gate has no shell: a plain answer then, never the site's 404.html (its layout shows the announcement).
        { hidden: true, plainNotFound: true },
      );
    },
  };
}

/**
 * Why a login or logout must not be taken, or undefined: a browser says a request comes from another
 * site (`Sec-Fetch-Site`, or an `Origin` that is not this host), which a form on any page could send
 * to sign a reader in to someone else's account or out of their own; and a login that is not JSON,
 * the one form the login screen sends (a cross-site form cannot send it without asking first, and the
 * host answers no such question).
 */
function crossSiteProblem(request: IncomingMessage, login: boolean): { status: number; text: string } | undefined {
  const site = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  const hosts = [request.headers.host, request.headers['x-forwarded-host']].flatMap((host) => (typeof host === 'string' ? host.split(',').map((one) => one.trim().toLowerCase()) : []));
  let foreignOrigin = false;
  if (typeof origin === 'string' && hosts.length > 0) {
    try {
      foreignOrigin = !hosts.includes(new URL(origin).host.toLowerCase());
    } catch {
      foreignOrigin = true;
    }
  }
  // What the browser says of where the request comes from decides (every current browser sends it, and
  // no page can set it); the Origin against this host's name only when it says nothing. Behind a proxy
  // that passes its own name as Host (nginx's default), the two differ for every reader.
  const foreign = typeof site === 'string' ? site !== 'same-origin' && site !== 'none' : foreignOrigin;
  if (foreign) return { status: 403, text: 'Forbidden: sign in and out from the documentation itself, not from another site.' };
  if (login && !/^application\/json\b/i.test(String(request.headers['content-type'] ?? ''))) return { status: 415, text: 'The login takes a JSON body (Content-Type: application/json).' };
  return undefined;
}

/** `response` whose `writeHead` passes status and headers through `change` first. */
function withHeaders(response: ServerResponse, change: (status: number, headers: OutgoingHttpHeaders) => number): ServerResponse {
  const writeHead = response.writeHead.bind(response) as (status: number, headers?: OutgoingHttpHeaders) => ServerResponse;
  (response as unknown as { writeHead: (status: number, headers?: OutgoingHttpHeaders) => ServerResponse }).writeHead = (status, headers = {}) => {
    const copy = { ...headers };
    return writeHead(change(status, copy), copy);
  };
  return response;
}

/**
 * True when a 401 asks for the one-time code of a login that sent none (spec §4, step 2): the password
 * was right, and this is the first step of every login of an account with a second factor — no failed
 * login (ten admins signing in behind one address must not lock it). A wrong code (one was sent) and
 * any other 401 are.
 */
function asksForCode(answer: Buffer, request: Buffer): boolean {
  try {
    const asked = (JSON.parse(answer.toString('utf8')) as { need_otp?: unknown } | null)?.need_otp === true;
    const sent = JSON.parse(request.toString('utf8')) as { otp_attempt?: unknown } | null;
    return asked && typeof sent === 'object' && sent !== null && !Array.isArray(sent) && (sent.otp_attempt === undefined || sent.otp_attempt === null || sent.otp_attempt === '');
  } catch {
    return false;
  }
}

/** The uid of a successful login answer whose roles admit the reader (spec §4, §6), else undefined. */
function admittedUid(body: Buffer, roles: string[]): string | undefined {
  try {
    const data = (JSON.parse(body.toString('utf8')) as { data?: { user?: { email?: unknown; roles?: unknown }; client?: unknown; access_token?: unknown } }).data;
    const userRoles = Array.isArray(data?.user?.roles) ? data.user.roles : [];
    // Spec §4: authenticated means uid, client and access token all set.
    if (!nonEmpty(data?.user?.email) || !nonEmpty(data?.client) || !nonEmpty(data?.access_token)) return undefined;
    return userRoles.some((role) => typeof role === 'string' && roles.includes(role)) ? (data!.user!.email as string) : undefined;
  } catch {
    return undefined;
  }
}

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** What the gate needs of a gated build, read from its sign-in shell's hydration data. */
export interface GatedSite {
  roles: string[];
  logoutPath: string;
}

/** True when `dist` was built for the gate: it holds the sign-in shell. */
export function isGatedBuild(dist: string): boolean {
  return existsSync(join(dist, SHELL_DIR, 'index.html'));
}

/** The gate's settings of a gated build; a usage error unless `dist` was built gated (it holds the sign-in shell). */
export function readGatedBuild(dist: string): GatedSite {
  const shell = join(dist, SHELL_DIR, 'index.html');
  if (!isGatedBuild(dist)) {
    throw new DocsError('usage', [{ file: dist, message: 'was not built for the gate: it has no sign-in shell, and its pages would send logins to the backend instead of this host', fix: 'build it with `docs build --gate` (or `gate: true` in site.config.ts), then serve it with --gate' }]);
  }
  const json = /<script type="application\/json" id="__DOCS_DATA__">([\s\S]*?)<\/script>/.exec(readFileSync(shell, 'utf8'))?.[1] ?? '{}';
  const site = (JSON.parse(json) as { site?: { auth?: { roles?: string[] }; app?: { logoutPath?: string } } }).site;
  return { roles: site?.auth?.roles ?? [], logoutPath: site?.app?.logoutPath ?? '/logout' };
}

/**
 * The secret of the development gate: random, kept in `file` (readable by its owner only) so that a
 * writer who restarts `docs serve` stays signed in. A file that cannot be read or written gives a
 * secret for this process alone.
 */
export function developmentSecret(file: string): Buffer {
  try {
    const kept = readFileSync(file);
    if (kept.length >= 32) return kept;
  } catch {
    // None yet: made below.
  }
  const secret = randomBytes(32);
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, secret, { mode: 0o600 });
  } catch {
    // A cache that takes no write: sessions last as long as this server.
  }
  return secret;
}
