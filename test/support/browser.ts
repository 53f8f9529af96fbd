/**
 * End-to-end helpers: the portal built once into `test/.tmp/e2e-dist` and served like a static host,
 * and Debian's Chromium driven by playwright-core (never a downloaded browser).
 */
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { createStaticHandler } from '../../cli/serve/static-files';
import { REPO, runDocs } from './site';

/** Where Debian installs Chromium; `CHROMIUM_PATH` overrides it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The flags every test browser runs with. */
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/**
 * Launches Chromium. A missing browser fails the test (it never skips), with the command that fixes it:
 * `.ci/run` installs it when absent.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM_PATH}; end-to-end tests need it. Install it with: apt-get update && apt-get install -y chromium`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
}

/** A built site served over HTTP. */
export interface ServedSite {
  /** Origin, e.g. `http://127.0.0.1:41234`. */
  origin: string;
  dist: string;
  close: () => Promise<void>;
}

/** Serves `dist` on a free port of 127.0.0.1. */
export async function serveDist(dist: string): Promise<ServedSite> {
  const server: Server = createServer(createStaticHandler(dist));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    dist,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Builds the portal (this repository's content) into `test/.tmp/<name>` with the real CLI, once per
 * test run for the same name, settings and arguments. The test files run side by side and several
 * serve the same folder: a second build while one of them serves it could publish it again under
 * its requests (after a build into another folder, the store's record of this one is gone). So the
 * first build leaves a mark in the run's folder (test/support/global-setup.ts), and a build refused
 * because another is writing the folder (cli/build/output-lock.ts) waits for it, then finds the mark.
 */
export function buildPortal(name: string, env: Record<string, string> = {}, args: string[] = []): string {
  const dist = join(REPO, 'test', '.tmp', name);
  const run = process.env.DOCS_TEST_RUN;
  const mark = run === undefined ? undefined : join(run, `portal-${createHash('sha256').update(JSON.stringify([name, env, args])).digest('hex').slice(0, 16)}`);
  const giveUp = Date.now() + 10 * 60_000;
  for (;;) {
    if (mark !== undefined && existsSync(mark)) return dist;
    const built = runDocs(['build', '--out', dist, ...args], { env });
    if (built.code === 0) {
      if (mark !== undefined) writeFileSync(mark, dist);
      return dist;
    }
    if (!/another docs build \(process \d+\) is writing this output folder/.test(built.stderr) || Date.now() > giveUp) throw new Error(`docs build failed (${built.code}):\n${built.stderr}`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
  }
}

/**
 * True when the end-to-end suite runs against the gated host (`DOCS_E2E_GATE=1`, the second pass of
 * `npm test`): the portal is built with --gate and served behind the gate, and a signed-in page also
 * carries a session cookie.
 */
export const GATED = process.env.DOCS_E2E_GATE === '1';

/** The secret of the gated test hosts. */
export const GATE_SECRET = Buffer.from('the end-to-end gate secret, long enough for the host');

/** The origin of the gated host, once served: signed-in pages get a session cookie for it. */
let gatedOrigin: string | undefined;

/** Tells `openPage` which gated host its signed-in pages need a session cookie for. */
export function useGatedOrigin(origin: string): void {
  gatedOrigin = origin;
}

/** Serves a gated build behind the gate (development accounts answer the logins). */
export async function serveGated(dist: string): Promise<ServedSite> {
  const { createGate } = await import('../../cli/serve/gate');
  const { answerLogin } = await import('../../cli/serve/dev-login');
  const gate = createGate({
    secret: GATE_SECRET,
    roles: ['admin', 'quad_member'],
    logoutPath: '/logout',
    sessionSeconds: 3600,
    serve: createStaticHandler(dist),
    login: async ({ body }) => {
      const answer = answerLogin(JSON.parse(body.toString('utf8') || 'null'));
      return { status: answer.status, headers: { 'content-type': 'application/json', ...answer.headers }, body: Buffer.from(JSON.stringify(answer.body)) };
    },
  });
  const server: Server = createServer((request, response) => gate.handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  gatedOrigin = origin;
  return { origin, dist, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A session cookie the gated test host accepts, for a context that should be signed in (none when ungated). */
export async function gateCookies(): Promise<{ name: string; value: string; url: string }[]> {
  if (!gatedOrigin) return [];
  const { signSession } = await import('../../cli/serve/sessions');
  return [{ name: 'docs_session', value: signSession(GATE_SECRET, 'member@quad.example', Math.floor(Date.now() / 1000) + 3600), url: gatedOrigin }];
}

/** Builds the portal and serves it (behind the gate in the gated pass). */
export async function servePortal(): Promise<ServedSite> {
  return GATED ? serveGated(buildPortal('e2e-gated-dist', {}, ['--gate'])) : serveDist(buildPortal('e2e-dist'));
}

/**
 * Console errors, warnings and uncaught exceptions of a page, as text. Chromium logs the 404 status of
 * a not-found document itself; that one is the server telling the truth, not a problem of the page.
 */
export function collectProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    const documentStatus = message.text().includes('status of 404') && message.location().url === page.url();
    if (!documentStatus) problems.push(`${message.type()}: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

/** localStorage key of the portal's credentials store (`auth.storageKey` in site.config.ts). */
export const AUTH_STORAGE_KEY = 'quad-docs-auth';

/** Credentials of a signed-in member, in the store's persisted format. */
export const MEMBER_CREDENTIALS = JSON.stringify({
  state: { uid: 'member@quad.example', client: 'e2e-client', accessToken: 'e2e-access-token', roles: ['quad_member'] },
  version: 0,
});

/**
 * A new page in a fresh context (own storage), at a desktop width unless told otherwise. Signed in as
 * a member unless `signedIn` is false: every load starts with the credentials in storage.
 */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}, { signedIn = true }: { signedIn?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  if (signedIn) {
    await context.addInitScript(([key, value]) => localStorage.setItem(key!, value!), [AUTH_STORAGE_KEY, MEMBER_CREDENTIALS]);
    await context.addCookies(await gateCookies());
  }
  return context.newPage();
}

/** Resolves once the runtime has hydrated the page and its router listens (`html[data-hydrated]`). */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
}

/** The served portal and a browser, set up once per test file by `usePortal`. */
export interface PortalSession {
  site: ServedSite;
  browser: Browser;
}

/** Registers the hooks that build and serve the portal and launch Chromium for this test file. */
export function usePortal(): PortalSession {
  const session = {} as PortalSession;
  beforeAll(async () => {
    session.site = await servePortal();
    session.browser = await launchChromium();
  });
  afterAll(async () => {
    await session.browser?.close();
    await session.site?.close();
  });
  return session;
}
