import { describe, expect, it } from 'vitest';
import { collectProblems, openPage, usePortal, waitForHydration } from '../support/browser';

const portal = usePortal();

describe('hydration', () => {
  for (const [kind, path, heading] of [
    ['a doc page', '/backend/onboarding/git', 'Git'],
    ['a category index', '/24urenloop', null],
    ['a page with a mermaid diagram', '/onboarding', null],
    ['an API reference page', '/backend/api/user-authentication/user-login', 'Sign in with e-mail and password'],
    ['the not-found page', '/no/such/page', 'Page not found'],
  ] as const) {
    it(`hydrates ${kind} without a console error or warning`, async () => {
      const page = await openPage(portal.browser);
      const problems = collectProblems(page);
      const response = await page.goto(portal.site.origin + path);
      expect(response?.status()).toBe(path.startsWith('/no/') ? 404 : 200);
      await waitForHydration(page);
      if (heading) await expect(page.locator('h1').first().textContent()).resolves.toContain(heading);
      // The page is alive: the colour-mode toggle, a React handler, works.
      await page.click('.theme-toggle');
      await expect(page.getAttribute('html', 'data-theme')).resolves.toBe('light');
      // Diagrams are drawn (and redrawn for the new mode) without a complaint either.
      for (const diagram of await page.locator('[data-mermaid]').all()) await expect.poll(() => diagram.getAttribute('data-mermaid-theme'), { timeout: 15_000 }).toBe('default');
      await page.waitForTimeout(300);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }
});
