/**
 * The runtime behind the gated host: when the host's session ends while the page still holds
 * credentials, the reader gets the login screen, never an error page (issue 14).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPortal, launchChromium, openPage, serveGated, waitForHydration, type ServedSite } from '../support/browser';

let site: ServedSite;
let browser: Browser;
beforeAll(async () => {
  site = await serveGated(buildPortal('e2e-gated-dist', {}, ['--gate']));
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe('the runtime behind the gate', () => {
  it('shows the login screen, not an error, when the session cookie has expired and a navigation needs a chunk', async () => {
    const page = await openPage(browser);
    await page.goto(`${site.origin}/backend/onboarding/git`);
    await waitForHydration(page);
    expect(await page.locator('.layout').isVisible()).toBe(true);
    // The prefetches of the links in view are done first: one sent after the cookie is gone gets a
    // 401 and rightly shows the login screen before the click (on a busy machine it did, by chance).
    await page.waitForLoadState('networkidle');
    // The cookie expires (the browser drops it) while the stored credentials remain.
    await page.context().clearCookies();
    await page.locator('.navbar-items a', { hasText: 'Infrastructure' }).click();
    await page.getByRole('heading', { name: 'Log in to Quad Docs' }).waitFor({ timeout: 15_000 });
    expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('quad-docs-auth') ?? 'null')?.state?.uid ?? null)).toBeNull();
    await page.context().close();
  });

  it('shows the login screen on the sign-in shell even with stale credentials in storage', async () => {
    // Signed in as far as storage goes, but no cookie: the host sends its shell.
    const page = await openPage(browser);
    await page.context().clearCookies();
    const response = await page.goto(`${site.origin}/infrastructure/onboarding`);
    expect(response?.status()).toBe(401);
    await waitForHydration(page);
    await page.getByRole('heading', { name: 'Log in to Quad Docs' }).waitFor();
    expect(await page.title()).toBe('Docs');
    expect(await page.locator('.layout').count()).toBe(0);
    await page.context().close();
  });
});
