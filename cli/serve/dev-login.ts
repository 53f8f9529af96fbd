/**
 * `POST /api/login` for development: a few documented accounts, so a writer with no network (and the
 * end-to-end tests) can get past the login gate. It answers like the real backend (devise_token_auth
 * with the OTP extension) in the fields the portal reads. Never part of a production build.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** One development account. */
export interface DevAccount {
  email: string;
  password: string;
  roles: string[];
  /** When set, the account needs this one-time code (the server answers 401 `need_otp` without it). */
  otp?: string;
}

/** The password of every development account. */
export const DEV_PASSWORD = 'docs-dev';

/** The development accounts: one plain member, one admin with OTP, one whose role does not count. */
export const DEV_ACCOUNTS: readonly DevAccount[] = [
  { email: 'member@quad.example', password: DEV_PASSWORD, roles: ['quad_member'] },
  { email: 'admin@quad.example', password: DEV_PASSWORD, roles: ['admin'], otp: '123456' },
  { email: 'alumnus@quad.example', password: DEV_PASSWORD, roles: ['alumnus'] },
];

/** The JSON body of a request, or undefined when it is not JSON. */
export async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body));
}

/** Answers a login body the way the backend does. */
export function answerLogin(body: unknown, accounts: readonly DevAccount[] = DEV_ACCOUNTS): { status: number; body: unknown; headers?: Record<string, string> } {
  const { email, password, otp_attempt: otp } = (body ?? {}) as { email?: unknown; password?: unknown; otp_attempt?: unknown };
  const account = accounts.find((candidate) => candidate.email === email && candidate.password === password);
  if (!account) return { status: 401, body: { success: false, errors: ['Invalid login credentials. Please try again.'] } };
  if (account.otp !== undefined && otp !== account.otp) return { status: 401, body: { success: false, need_otp: true, errors: ['A one-time code is needed.'] } };
  const client = randomBytes(12).toString('base64url');
  const token = randomBytes(24).toString('base64url');
  return {
    status: 200,
    body: { data: { user: { email: account.email, roles: account.roles }, client, access_token: token } },
    headers: { 'access-token': token, client, uid: account.email },
  };
}

/** A request handler for `POST /api/login` (CORS allowed, so a site on another origin may call it). */
export async function handleDevLogin(request: IncomingMessage, response: ServerResponse, accounts: readonly DevAccount[] = DEV_ACCOUNTS): Promise<void> {
  const cors = {
    'access-control-allow-origin': request.headers.origin ?? '*',
    'access-control-allow-headers': 'accept, content-type, accept-language, access-token, client, uid, x-xsrf-token, x-quad-version',
    'access-control-allow-methods': 'POST, OPTIONS',
    'access-control-expose-headers': 'access-token, client, uid',
  };
  if (request.method === 'OPTIONS') {
    response.writeHead(204, cors).end();
    return;
  }
  if (request.method !== 'POST') {
    send(response, 405, { errors: ['Use POST.'] }, cors);
    return;
  }
  const answer = answerLogin(await readJson(request), accounts);
  send(response, answer.status, answer.body, { ...cors, ...answer.headers });
}
