/**
 * Accessibility (issue 15): axe-core finds no serious or critical violation of WCAG 2.2 A/AA on the
 * login screen, a doc page, a page with diagrams, an API page, the not-found page and the drawer, in
 * both colour modes.
 * Colour contrast of text, links and code tokens is part of it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, usePortal, waitForHydration } from '../support/browser';

const portal = usePortal();
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The WCAG levels checked: 2.0, 2.1 and 2.2, A and AA. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

interface Finding {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Serious and critical axe-core findings on the page as it is now, each with the elements it names.
 * axe is injected through the debugging protocol, which the page's CSP does not govern.
 */
async function seriousViolations(page: Page, include?: string): Promise<Finding[]> {
  await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(
    async ([tags, context]) => {
      // axe-core is a global script once evaluated; it has no type in the page's scope.
      const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
      const result = await axe.run(context ? { include: [context] } : document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
      return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help, targets: violation.nodes.slice(0, 8).map((node) => node.target.join(' ')) }));
    },
    [TAGS, include ?? null] as const,
  );
  return found.filter((finding) => finding.impact === 'serious' || finding.impact === 'critical');
}

/** A readable line per finding, so a failure says what to fix. */
function describeFindings(where: string, findings: Finding[]): string[] {
  return findings.map((finding) => `${where}: ${finding.id} (${finding.impact}) ${finding.help} — ${finding.targets.join(', ')}`);
}

const PAGES: [string, string][] = [
  ['doc page', '/backend/onboarding/git'],
  ['doc page with tables and admonitions', '/internal-wiki/secretaris'],
  ['API page', '/backend/api/user-authentication/user-login'],
  ['doc page with drawn diagrams', '/24urenloop/deployment/overview'],
  // Shell comments in code blocks (github-dark writes them at 3.05:1), and wide tables that scroll.
  ['doc page with commented code', '/backend/onboarding/install'],
  ['doc page with task lists', '/internal-wiki/draaiboeken'],
  ['doc page with wide tables', '/backend/backend/environment-variables'],
  ['not-found page', '/no/such/page'],
];

describe('accessibility (axe-core, WCAG 2.2 AA)', () => {
  for (const theme of ['dark', 'light'] as const) {
    it(`finds no serious violation on the login screen, the pages and the drawer in ${theme} mode`, async () => {
      const problems: string[] = [];
      const login = await openPage(portal.browser, {}, { signedIn: false });
      await login.addInitScript((value) => localStorage.setItem('quad-docs-theme', value), theme);
      await login.goto(`${portal.site.origin}/backend/onboarding/git`);
      await login.getByRole('button', { name: /log in/i }).first().waitFor();
      problems.push(...describeFindings('login screen', await seriousViolations(login)));
      await login.context().close();

      const page = await openPage(portal.browser);
      await page.addInitScript((value) => localStorage.setItem('quad-docs-theme', value), theme);
      for (const [name, path] of PAGES) {
        await page.goto(portal.site.origin + path);
        await waitForHydration(page);
        expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
        // Diagrams are checked as drawn, not as their source.
        await page.waitForFunction(() => [...document.querySelectorAll('[data-mermaid]')].every((element) => element.hasAttribute('data-mermaid-theme')), undefined, { timeout: 20_000 });
        problems.push(...describeFindings(name, await seriousViolations(page)));
      }

      await page.setViewportSize({ width: 390, height: 800 });
      await page.goto(`${portal.site.origin}/backend/onboarding/git`);
      await waitForHydration(page);
      await page.locator('.navbar-toggle').click();
      await page.locator('.drawer').waitFor();
      await page.waitForTimeout(400);
      problems.push(...describeFindings('drawer', await seriousViolations(page, '.drawer')));
      await page.context().close();
      expect(problems).toEqual([]);
    });
  }
});
