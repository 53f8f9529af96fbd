/**
 * The portal served together with a login backend on one origin, for the login-gate tests: the build
 * points `DOCS_BACKEND_URL` at the server, which answers `POST /api/login` with the development
 * accounts of `docs serve` and records every request exactly as it arrived.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerLogin, readJson } from '../../cli/serve/dev-login';
import { createStaticHandler } from '../../cli/serve/static-files';
import { buildPortal, GATE_SECRET, GATED, useGatedOrigin, type ServedSite } from './browser';

/** An e-mail address the server answers with 500, like a backend in trouble. */
export const SERVER_ERROR_EMAIL = 'server-error@quad.example';

/** One request to the login endpoint. */
export interface RecordedLogin {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** The served portal and what the login endpoint received. */
export interface GatedPortal extends ServedSite {
  logins: RecordedLogin[];
  /** Milliseconds the next answers wait (the logo animates meanwhile). */
  delay: number;
}

/** The answer of the test backend to a login body (a 500 for `SERVER_ERROR_EMAIL`). */
function backendAnswer(body: unknown): { status: number; body: unknown; headers?: Record<string, string> } {
  return (body as { email?: string } | undefined)?.email === SERVER_ERROR_EMAIL ? { status: 500, body: { errors: ['Internal server error'] }, headers: {} } : answerLogin(body);
}

/**
 * In the gated pass (`DOCS_E2E_GATE=1`): the portal built with --gate behind the gated host, whose
 * logins go to the same recording backend. Everything a reader does passes through the gate.
 */
async function serveBehindGate(portal: GatedPortal): Promise<GatedPortal> {
  const { createGate } = await import('../../cli/serve/gate');
  const dist = buildPortal('e2e-auth-gated-dist', {}, ['--gate']);
  const gate = createGate({
    secret: GATE_SECRET,
    roles: ['admin', 'quad_member'],
    logoutPath: '/logout',
    sessionSeconds: 3600,
    serve: createStaticHandler(dist),
    login: async ({ headers, body }) => {
      let json: unknown;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        json = undefined;
      }
      portal.logins.push({ method: 'POST', url: '/api/login', headers, body: json });
      await new Promise((resolve) => setTimeout(resolve, portal.delay));
      const answer = backendAnswer(json);
      return { status: answer.status, headers: { 'content-type': 'application/json', ...answer.headers }, body: Buffer.from(JSON.stringify(answer.body)) };
    },
  });
  const server = createServer((request, response) => gate.handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  useGatedOrigin(origin);
  return Object.assign(portal, { origin, dist, close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
}

/** Starts the server, builds the portal against it and serves it (behind the gate in the gated pass). */
export async function serveGatedPortal(): Promise<GatedPortal> {
  if (GATED) return serveBehindGate({ logins: [] as RecordedLogin[], delay: 0 } as GatedPortal);
  let serveFile: ReturnType<typeof createStaticHandler> | undefined;
  const portal = { logins: [] as RecordedLogin[], delay: 0 } as GatedPortal;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== '/api/login') return serveFile?.(request, response);
    void (async () => {
      const body = await readJson(request);
      portal.logins.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      await new Promise((resolve) => setTimeout(resolve, portal.delay));
      const answer = backendAnswer(body);
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(JSON.stringify(answer.body));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dist = buildPortal('e2e-auth-dist', { DOCS_BACKEND_URL: origin });
  serveFile = createStaticHandler(dist);
  return Object.assign(portal, { origin, dist, close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
}
