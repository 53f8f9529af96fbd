/**
 * The gates of `docs serve`: how it answers logins behind one (the backend given with `--backend`, or
 * the development accounts), and the gate in front of a finished build (`--dist`).
 */
import { createHmac } from 'node:crypto';
import { resolve } from 'node:path';
import { DocsError } from '../util/errors';
import { answerLogin } from './dev-login';
import { backendLogin, createGate, DEFAULT_SESSION_DAYS, isGatedBuild, readGatedBuild, sessionSecret, type Gate, type GateOptions } from './gate';
import type { ServeOptions } from './options';

/** How `docs serve` answers logins behind its gate: through `--backend`, or with the development accounts. */
export function gateLogin(options: ServeOptions): GateOptions['login'] {
  if (options.backend) return backendLogin(options.backend);
  return async ({ body }) => {
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      json = undefined;
    }
    const answer = answerLogin(json);
    return { status: answer.status, headers: { 'content-type': 'application/json; charset=utf-8', ...answer.headers }, body: Buffer.from(JSON.stringify(answer.body)) };
  };
}

/**
 * The key a gate signs its sessions with: the secret, bound to who admits the readers — the backend's
 * address, or the development accounts. Two hosts that share `DOCS_SESSION_SECRET` but not their
 * backend do not take each other's sessions: a `docs serve --gate` run with the production secret in
 * its environment, whose development accounts' password is in the README, made sessions that opened
 * the production host.
 */
export function sessionKey(secret: Buffer, options: Pick<ServeOptions, 'backend'>): Buffer {
  let audience = 'the development accounts of docs serve';
  if (options.backend) {
    try {
      audience = new URL(options.backend).href;
    } catch {
      audience = options.backend;
    }
  }
  return createHmac('sha256', secret).update(`docs-session\0${audience}`).digest();
}

/**
 * The gate in front of a finished build (`--dist`): on when the build was made for it (it holds the
 * sign-in shell) unless `--no-gate`, or with `--gate`; a real backend and `DOCS_SESSION_SECRET` required.
 */
export function distGate(options: ServeOptions & { dist: string }, serve: GateOptions['serve']): Gate | undefined {
  const dist = resolve(options.dist);
  if (options.gate === false || (options.gate === undefined && !isGatedBuild(dist))) return undefined;
  const { roles, logoutPath } = readGatedBuild(dist);
  if (!options.backend) {
    throw new DocsError('usage', [
      options.gate
        ? { file: 'docs serve', message: '--gate with --dist needs --backend URL: a production host never answers logins itself', fix: 'e.g. --backend https://api.quad.example' }
        : { file: options.dist, message: 'was built for the gate (gate: true or --gate), and serving it behind the gate needs --backend URL: a production host never answers logins itself', fix: 'e.g. --backend https://api.quad.example (with DOCS_SESSION_SECRET set), or --no-gate to serve it to anyone without a session' },
    ]);
  }
  return createGate({ secret: sessionKey(sessionSecret(options.env), options), roles, logoutPath, login: gateLogin(options), serve, sessionSeconds: sessionSeconds(options), trustProxy: options.trustProxy });
}

export function sessionSeconds(options: ServeOptions): number {
  return Math.round((options.sessionDays ?? DEFAULT_SESSION_DAYS) * 86_400);
}

