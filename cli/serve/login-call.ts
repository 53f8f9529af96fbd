/**
 * The login call's two ends outside the gate's rules (gate.ts): the body a reader sends, read whole
 * before the login counts, and the call to the backend the host makes with it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GateOptions } from './gate';

/** The largest login body forwarded (a login is a few hundred bytes). */
const MAX_LOGIN_BODY = 64 * 1024;

/** Headers that belong to one connection, never forwarded (RFC 9110 §7.6.1), and those the body's new form changes. */
// `expect: 100-continue` too (curl sends it with larger bodies): the host answered it, and the backend call refused the header (a 502).
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host', 'content-length', 'content-encoding', 'expect']);

/** Forwards a login to `backend`'s `/api/login` with the request's headers and body, and returns the answer. */
export function backendLogin(backend: string): GateOptions['login'] {
  const url = new URL('api/login', backend.endsWith('/') ? backend : `${backend}/`).href;
  return async ({ headers, body, signal }) => {
    const forwarded = Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
    let response: Response;
    try {
      response = await fetch(url, { method: 'POST', headers: forwarded, body: new Uint8Array(body), redirect: 'manual', signal });
    } catch {
      return { status: 502, headers: { 'content-type': 'application/json; charset=utf-8' }, body: Buffer.from('{"errors":["The login service cannot be reached."]}') };
    }
    // A redirect passed on would have the browser send the password again, to wherever it points: the
    // login failed, as any answer but a success or a 401 does (spec §4: the network error).
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined);
      return { status: 502, headers: { 'content-type': 'application/json; charset=utf-8' }, body: Buffer.from('{"errors":["The login service answered with a redirect, which the host does not follow."]}') };
    }
    const answer: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name) && name !== 'set-cookie') answer[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) answer['set-cookie'] = cookies.join('\n');
    return { status: response.status, headers: answer, body: Buffer.from(await response.arrayBuffer()) };
  };
}

/** How long a login's body may take to arrive. */
const LOGIN_BODY_MS = 10_000;

/**
 * The body of a login, once it has all arrived; undefined when it was answered instead: 413 past
 * `MAX_LOGIN_BODY`, 408 when it took longer than `LOGIN_BODY_MS`, nothing when the client went away.
 */
export async function loginBody(request: IncomingMessage, response: ServerResponse): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  const timer = setTimeout(() => {
    response.writeHead(408, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end('The login request took too long to arrive.', () => request.destroy());
  }, LOGIN_BODY_MS);
  try {
    for await (const chunk of request) {
      size += (chunk as Buffer).length;
      if (size > MAX_LOGIN_BODY) {
        response.writeHead(413, { 'content-type': 'text/plain; charset=utf-8' }).end('The login request is too large.');
        return undefined;
      }
      chunks.push(chunk as Buffer);
    }
    if (response.headersSent) return undefined;
  } catch {
    // The client went away, or took too long (answered above).
    return undefined;
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks);
}

