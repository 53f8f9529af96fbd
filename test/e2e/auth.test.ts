import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEV_PASSWORD } from '../../cli/serve/dev-login';
import { AUTH_STORAGE_KEY, collectProblems, gateCookies, GATED, launchChromium, MEMBER_CREDENTIALS, openPage, waitForHydration } from '../support/browser';
import { serveGatedPortal, SERVER_ERROR_EMAIL, type GatedPortal } from '../support/login-server';

let portal: GatedPortal;
let browser: Browser;

beforeAll(async () => {
  portal = await serveGatedPortal();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await portal?.close();
});
beforeEach(() => {
  portal.logins.length = 0;
  portal.delay = 0;
});

const GIT = '/backend/onboarding/git';
const CREDENTIALS_MESSAGE = 'Incorrect email address or password';
const CREDENTIALS_TIP = 'Tip: use the email address linked to the account, not necessarily the academic email address.';
const NETWORK_MESSAGE = 'An issue occurred during login. Please try again later. If this issue keeps occurring, contact us at it@quad.example.';

/** A signed-out reader at `path`, with the login screen on it. */
async function openSignedOut(path = GIT): Promise<Page> {
  const page = await openPage(browser, {}, { signedIn: false });
  page.setDefaultTimeout(10_000);
  await page.goto(portal.origin + path);
  await waitForHydration(page);
  await page.getByRole('heading', { name: 'Log in to Quad Docs' }).waitFor();
  return page;
}

async function fill(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
}

async function submit(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Log in with your Quad account' }).click();
}

async function stored(page: Page): Promise<unknown> {
  return page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? 'null') as unknown, AUTH_STORAGE_KEY);
}

async function alertText(page: Page): Promise<string> {
  const alert = page.getByRole('alert');
  await alert.waitFor();
  return (await alert.innerText()).replace(/\s+/g, ' ').trim();
}

describe('login screen', () => {
  for (const path of [GIT, '/no/such/page']) {
    it(`replaces ${path === GIT ? 'a doc page' : 'the not-found page'} for a signed-out reader`, async () => {
      const page = await openSignedOut(path);
      expect(await page.locator('.layout').count()).toBe(0);
      // The tab names the site alone, not the page behind the gate.
      expect(await page.title()).toBe('Docs');
      const email = page.getByLabel('E-mail');
      expect(await email.getAttribute('autocomplete')).toBe('email');
      expect(await page.getByLabel('Password').getAttribute('autocomplete')).toBe('current-password');
      expect(await page.getByLabel('Password').getAttribute('type')).toBe('password');
      expect(await page.getByLabel('OTP code').count()).toBe(0);
      const rootPx = await page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));
      expect((await page.locator('form.login-form').boundingBox())!.width).toBe(24 * rootPx);
      expect((await page.getByRole('button', { name: 'Log in with your Quad account' }).boundingBox())!.width).toBe(24 * rootPx);
      await page.context().close();
    });
  }

  it('ignores a submit unless e-mail and password are both filled, without a request or a message', async () => {
    const page = await openSignedOut();
    await submit(page);
    await page.getByLabel('E-mail').fill('member@quad.example');
    await submit(page);
    await page.getByLabel('E-mail').fill('');
    await page.getByLabel('Password').fill(DEV_PASSWORD);
    await submit(page);
    await page.waitForTimeout(300);
    expect(portal.logins).toEqual([]);
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.context().close();
  });

  it('shows the section a link named once the reader signs in, and again after a reload', async () => {
    const page = await openSignedOut(`${GIT}#ci-pipeline`);
    await fill(page, 'member@quad.example', DEV_PASSWORD);
    await submit(page);
    await page.locator('.layout').waitFor();
    const headingTop = (): Promise<number> => page.evaluate(() => document.getElementById('ci-pipeline')!.getBoundingClientRect().top);
    const navbar = await page.evaluate(() => document.querySelector('.navbar')!.getBoundingClientRect().height);
    // Just below the sticky navbar, not at the top of the page.
    await expect.poll(headingTop).toBeLessThan(navbar + 40);
    expect(await headingTop()).toBeGreaterThanOrEqual(0);
    expect(await page.evaluate(() => scrollY)).toBeGreaterThan(200);
    await page.reload();
    await waitForHydration(page);
    await expect.poll(headingTop).toBeLessThan(navbar + 40);
    // Scrolled on from the section, a reload keeps the reader where they were.
    await page.evaluate(() => scrollBy(0, 300));
    const y = await page.evaluate(() => scrollY);
    await page.waitForTimeout(300);
    await page.reload();
    await waitForHydration(page);
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(y);
    await page.context().close();
  });

  it('signs a member in, stores the credentials as {state, version: 0} and shows the page', async () => {
    const page = await openSignedOut();
    const problems = collectProblems(page);
    await page.context().addCookies([{ name: 'XSRF-TOKEN', value: 'xsrf-123', url: portal.origin }]);
    await fill(page, 'member@quad.example', DEV_PASSWORD);
    await submit(page);
    await page.locator('.layout').waitFor();
    expect(await page.locator('#main h1').textContent()).toBe('Git and merge requests');
    expect(page.url()).toBe(portal.origin + GIT);
    expect(await page.title()).toBe('Git and merge requests | Docs');
    const persisted = (await stored(page)) as { state: Record<string, unknown>; version: number };
    expect(persisted.version).toBe(0);
    expect(Object.keys(persisted.state).sort()).toEqual(['accessToken', 'client', 'roles', 'uid']);
    expect(persisted.state).toMatchObject({ uid: 'member@quad.example', roles: ['quad_member'] });
    // The request as the server received it (spec §7).
    expect(portal.logins).toHaveLength(1);
    const [login] = portal.logins;
    expect(login!.method).toBe('POST');
    expect(login!.url).toBe('/api/login');
    expect(login!.body).toEqual({ email: 'member@quad.example', password: DEV_PASSWORD });
    expect(login!.headers).toMatchObject({
      accept: 'application/json',
      'content-type': 'application/json',
      'x-quad-version': 'WEB/4.0.0 (1)',
      'accept-language': 'en',
      'x-xsrf-token': 'xsrf-123',
    });
    expect(login!.headers['access-token']).toBeUndefined();
    // Hygiene: the secrets are in storage only, never in the URL, the page or the console.
    const token = persisted.state.accessToken as string;
    expect(page.url()).not.toContain(token);
    expect(await page.content()).not.toContain(token);
    expect(await page.content()).not.toContain(DEV_PASSWORD);
    expect(problems.join('\n')).not.toContain(token);
    await page.reload();
    await waitForHydration(page);
    expect(await page.locator('.layout').isVisible()).toBe(true);
    expect(await page.locator('.login').count()).toBe(0);
    if (GATED) {
      // Behind the gate the host set its session cookie: HttpOnly, out of the page's reach.
      const cookies = await page.context().cookies();
      expect(cookies.find((cookie) => cookie.name === 'docs_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
      expect(await page.evaluate(() => document.cookie)).not.toContain('docs_session');
      // A client-side navigation loads its data chunk through the gate too.
      await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
      await page.locator('.navbar-items a', { hasText: 'Onboarding' }).click();
      await page.waitForURL(`${portal.origin}/onboarding`);
      await page.locator('#main h1').filter({ hasText: /\S/ }).waitFor();
      expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
      expect(await page.locator('.login').count()).toBe(0);
    }
    await page.context().close();
  });

  it('shows the credentials message with its tip on a wrong password', async () => {
    const page = await openSignedOut();
    await fill(page, 'member@quad.example', 'wrong');
    await submit(page);
    expect(await alertText(page)).toBe(`${CREDENTIALS_MESSAGE} ${CREDENTIALS_TIP}`);
    expect(await stored(page)).toBeNull();
    await page.context().close();
  });

  it('asks for the one-time code without a message, says when it is wrong, and signs in with the right one', async () => {
    const page = await openSignedOut();
    await fill(page, 'admin@quad.example', DEV_PASSWORD);
    await submit(page);
    const otp = page.getByLabel('OTP code');
    await otp.waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await otp.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await otp.getAttribute('inputmode')).toBe('numeric');
    expect(portal.logins[0]!.body).toEqual({ email: 'admin@quad.example', password: DEV_PASSWORD });
    await otp.fill('000000');
    await submit(page);
    expect(await alertText(page)).toBe('Incorrect OTP code');
    expect(portal.logins[1]!.body).toEqual({ email: 'admin@quad.example', password: DEV_PASSWORD, otp_attempt: '000000' });
    await otp.fill('123456');
    await submit(page);
    await page.locator('.layout').waitFor();
    expect(((await stored(page)) as { state: { roles: string[] } }).state.roles).toEqual(['admin']);
    await page.context().close();
  });

  it('keeps an account whose role does not count on the login screen', async () => {
    const page = await openSignedOut();
    await fill(page, 'alumnus@quad.example', DEV_PASSWORD);
    await submit(page);
    expect(await alertText(page)).toBe('This account has no access to Docs: it needs the admin or quad_member role. Contact us at it@quad.example.');
    expect(await page.locator('.layout').count()).toBe(0);
    // Stored as the specification says (setting credentials stores them), but not admitted.
    expect(((await stored(page)) as { state: { uid: string } }).state.uid).toBe('alumnus@quad.example');
    await page.reload();
    await waitForHydration(page);
    await page.getByRole('heading', { name: 'Log in to Quad Docs' }).waitFor();
    await page.context().close();
  });

  it('shows the network message, not a missing role, when the answer leaves the client or token empty, and signs no one in', async () => {
    const page = await openSignedOut();
    const answer = { data: { user: { email: 'member@quad.example', roles: ['quad_member'] }, client: '', access_token: 't' } };
    await page.route('**/api/login', (route: Route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(answer) }));
    await fill(page, 'member@quad.example', DEV_PASSWORD);
    await submit(page);
    expect(await alertText(page)).toBe(NETWORK_MESSAGE);
    expect(await page.locator('.layout').count()).toBe(0);
    expect(((await stored(page)) as { state?: { uid?: string } } | null)?.state?.uid ?? null).toBeNull();
    await page.context().close();
  });

  it('asks nothing of the documentation while signed out: no route manifest', async () => {
    const page = await openPage(browser, {}, { signedIn: false });
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    await page.goto(portal.origin + GIT);
    await waitForHydration(page);
    await page.getByRole('heading', { name: 'Log in to Quad Docs' }).waitFor();
    // The manifest was fetched in the first idle moment after hydration; a second is plenty.
    await page.waitForTimeout(1000);
    expect(asked.filter((path) => path === '/manifest.json' || path.startsWith('/assets/pages/'))).toEqual([]);
    await page.context().close();
  });

  it('shows the network message with the contact address on a server error and on a failed request', async () => {
    const page = await openSignedOut();
    await fill(page, SERVER_ERROR_EMAIL, DEV_PASSWORD);
    await submit(page);
    expect(await alertText(page)).toBe(NETWORK_MESSAGE);
    expect(await page.getByRole('link', { name: 'it@quad.example' }).getAttribute('href')).toBe('mailto:it@quad.example');
    await page.route('**/api/login', (route: Route) => route.abort('connectionfailed'));
    await fill(page, 'member@quad.example', DEV_PASSWORD);
    await submit(page);
    await page.waitForTimeout(200);
    expect(await alertText(page)).toBe(NETWORK_MESSAGE);
    await page.context().close();
  });

  it('animates the logo while the request runs and for 2 seconds after a click', async () => {
    const page = await openSignedOut();
    const logo = page.locator('.login-logo');
    expect(await logo.getAttribute('class')).toBe('login-logo');
    portal.delay = 800;
    await fill(page, 'member@quad.example', 'wrong');
    await submit(page);
    await expect.poll(() => logo.getAttribute('class')).toBe('login-logo animated');
    await page.getByRole('alert').waitFor();
    expect(await logo.getAttribute('class')).toBe('login-logo');
    await page.getByRole('button', { name: 'Docs logo' }).click();
    const clicked = Date.now();
    expect(await logo.getAttribute('class')).toBe('login-logo animated');
    await expect.poll(() => logo.getAttribute('class'), { timeout: 4000, interval: 50 }).toBe('login-logo');
    const elapsed = Date.now() - clicked;
    expect(elapsed).toBeGreaterThanOrEqual(1800);
    // A click while it moves animates it for 2 s from that click: still moving 2.5 s after the first.
    await page.getByRole('button', { name: 'Docs logo' }).click();
    const first = Date.now();
    await page.waitForTimeout(1500);
    await page.getByRole('button', { name: 'Docs logo' }).click();
    const second = Date.now();
    await page.waitForTimeout(Math.max(0, first + 2500 - Date.now()));
    expect(await logo.getAttribute('class')).toBe('login-logo animated');
    await expect.poll(() => logo.getAttribute('class'), { timeout: 4000, interval: 50 }).toBe('login-logo');
    expect(Date.now() - second).toBeGreaterThanOrEqual(1800);
    await page.context().close();
  });
});

describe('no flash before the runtime runs', () => {
  // With the runtime bundle blocked, only the inline head script and the stylesheet act.
  async function openBlocked(signedIn: boolean): Promise<Page> {
    const page = await openPage(browser, {}, { signedIn });
    await page.route('**/assets/app.*.js', (route: Route) => route.abort());
    await page.goto(portal.origin + GIT, { waitUntil: 'domcontentloaded' });
    return page;
  }

  it('never shows the page to a signed-out reader: the animated logo covers the screen', async () => {
    const page = await openBlocked(false);
    expect(await page.getAttribute('html', 'data-auth')).toBe('out');
    expect(await page.title()).toBe('Docs');
    expect(await page.locator('.layout').isVisible()).toBe(false);
    const splash = await page.evaluate(() => {
      const style = getComputedStyle(document.body, '::after');
      return { content: style.content, animation: style.animationName, position: style.position };
    });
    expect(splash).toEqual({ content: '""', animation: 'logo-pulse', position: 'fixed' });
    await page.context().close();
  });

  it('never shows the login screen to a signed-in reader: the page is there at once', async () => {
    const page = await openBlocked(true);
    expect(await page.getAttribute('html', 'data-auth')).toBe('in');
    expect(await page.title()).toBe('Git and merge requests | Docs');
    expect(await page.locator('.layout').isVisible()).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.body, '::after').content)).toBe('none');
    await page.context().close();
  });
});

describe('log out', () => {
  it('clears uid, client and accessToken, reloads to the login screen, and signs out the other tabs', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addCookies(await gateCookies());
    await context.addInitScript(
      ([key, value]) => {
        // Sign in once per context: later loads must see what the page itself stored.
        if (!sessionStorage.getItem('seeded') && !localStorage.getItem(key!)) localStorage.setItem(key!, value!);
        sessionStorage.setItem('seeded', '1');
      },
      [AUTH_STORAGE_KEY, MEMBER_CREDENTIALS],
    );
    const first = await context.newPage();
    await first.goto(portal.origin + GIT);
    await waitForHydration(first);
    const second = await context.newPage();
    await second.goto(portal.origin + '/onboarding');
    await waitForHydration(second);
    expect(await second.locator('.layout').isVisible()).toBe(true);
    const reloaded = first.waitForEvent('load');
    await first.getByRole('button', { name: 'Log out' }).click();
    await reloaded;
    await waitForHydration(first);
    await first.getByRole('heading', { name: 'Log in to Quad Docs' }).waitFor();
    const persisted = (await stored(first)) as { state: Record<string, unknown>; version: number };
    expect(persisted).toEqual({ state: { uid: null, client: null, accessToken: null, roles: [] }, version: 0 });
    await second.getByRole('heading', { name: 'Log in to Quad Docs' }).waitFor();
    expect(await second.locator('.layout').count()).toBe(0);
    if (GATED) {
      // The host's session ended too: a plain request with the browser's cookies gets the sign-in shell.
      const cookie = (await context.cookies()).map(({ name, value }) => `${name}=${value}`).join('; ');
      const response = await fetch(portal.origin + '/onboarding', { headers: { cookie } });
      expect(response.status).toBe(401);
      expect(await response.text()).toContain('data-gate-shell');
    }
    await context.close();
  });

  it('signs in every other tab on the login screen, each showing its own page (behind the gate, the host sends it)', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const other = await context.newPage();
    await other.goto(portal.origin + GIT);
    await waitForHydration(other);
    await other.getByRole('heading', { name: 'Log in to Quad Docs' }).waitFor();
    const first = await context.newPage();
    await first.goto(portal.origin + '/onboarding');
    await waitForHydration(first);
    await fill(first, 'member@quad.example', DEV_PASSWORD);
    await submit(first);
    await first.locator('.layout').waitFor();
    // The other tab follows without a hand on it: its page, not a not-found page (the sign-in shell's layout).
    await other.getByRole('heading', { level: 1, name: 'Git and merge requests' }).waitFor({ timeout: 15_000 });
    expect(await other.getByText('Page not found').count()).toBe(0);
    expect(await other.locator('.navbar-items a').count()).toBeGreaterThan(0);
    await context.close();
  });
});

describe('JavaScript off', () => {
  it('tells the reader the site needs JavaScript instead of a blank page; behind the gated host, an admitted reader reads the page', async () => {
    for (const width of [390, 1280]) {
      for (const signedIn of [false, true]) {
        const context = await browser.newContext({ viewport: { width, height: 800 }, javaScriptEnabled: false });
        if (signedIn) await context.addCookies(await gateCookies());
        const page = await context.newPage();
        await page.goto(portal.origin + GIT);
        const where = `${width} px, signed in: ${signedIn}`;
        const notice = page.locator('.noscript-notice');
        if (GATED && signedIn) {
          // The host checked the session and sent the page: it shows, with one line on what needs JavaScript.
          expect(await notice.count(), where).toBe(0);
          expect(await page.locator('.layout').isVisible(), where).toBe(true);
          expect(await page.locator('#main h1').innerText()).toBe('Git and merge requests');
          expect((await page.locator('.noscript-bar').innerText()).trim()).toBe('JavaScript is off: this page reads as it is, but search, the menu on a small screen, diagrams, code tabs and Log out need it.');
        } else {
          // Elsewhere (the sign-in shell, or a host that checks no session) no page can be shown.
          expect(await notice.isVisible(), where).toBe(true);
          expect((await notice.innerText()).replace(/\s+/g, ' ').trim()).toBe('Docs needs JavaScript. Turn JavaScript on for this site, then reload the page to sign in and read the documentation.');
          expect(await page.locator('.layout').isVisible(), where).toBe(false);
          expect(await page.locator('.noscript-bar').count(), where).toBe(0);
        }
        expect(await page.evaluate(() => document.documentElement.scrollWidth), where).toBe(width);
        await context.close();
      }
    }
  });
});

describe('a login screen whose code comes', () => {
  it('is shown the moment its code is in, with no timer between (React\'s lazy() held it 300 ms behind the splash)', async () => {
    const page = await openPage(browser, {}, { signedIn: false });
    // The page's clock stands still from its first line: a screen that waits on a timer never shows.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 60_000);
    await page.goto(portal.origin + GIT);
    await page.getByRole('heading', { name: 'Log in to Quad Docs' }).waitFor({ timeout: 15_000 });
    expect(await page.locator('.layout').isVisible()).toBe(false);
    await page.context().close();
  });
});

describe('a login screen whose code does not come', () => {
  it('loads the page in full once (a new deployment), then says why with Retry, never an empty page', async () => {
    const page = await openPage(browser, {}, { signedIn: false });
    // The chunk is gone, as after a deployment that renamed it, for every request.
    await page.route('**/assets/chunks/LoginScreen.*', (route) => route.fulfill({ status: 404, body: 'gone' }));
    // Each load of the page (a reload may come before the first one's load event).
    let loads = 0;
    page.on('request', (request) => request.resourceType() === 'document' && loads++);
    await page.goto(portal.origin + GIT);
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 15_000 });
    expect(loads).toBe(2);
    expect(await alert.getByRole('heading').innerText()).toBe('The sign-in screen could not be loaded');
    expect(await alert.innerText()).toContain('LoginScreen');
    expect(await page.locator('.layout').isVisible()).toBe(false);
    // Retry loads the page again, and with the chunk back the login screen is there.
    await page.unroute('**/assets/chunks/LoginScreen.*');
    await alert.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('heading', { name: 'Log in to Quad Docs' }).waitFor({ timeout: 15_000 });
    expect(loads).toBe(3);
    await page.context().close();
  });

  it('says the device is offline, without a reload, when the chunk fails offline', async () => {
    const page = await openPage(browser, {}, { signedIn: false });
    await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'onLine', { get: () => false }));
    await page.route('**/assets/chunks/LoginScreen.*', (route) => route.abort('internetdisconnected'));
    // Each load of the page (a reload may come before the first one's load event).
    let loads = 0;
    page.on('request', (request) => request.resourceType() === 'document' && loads++);
    await page.goto(portal.origin + GIT);
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.innerText()).toContain('This device is offline. Connect to the network, then retry.');
    expect(loads).toBe(1);
    await page.context().close();
  });
});
