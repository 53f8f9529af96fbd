import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectProblems, launchChromium, openPage, serveDist, waitForHydration, type ServedSite } from '../support/browser';
import { copyFixture, runDocs } from '../support/site';

/** Every way the page could try to run a script through raw HTML in markdown. */
const HOSTILE = `---
title: Hostile page
---

Raw HTML is allowed in markdown, but only what the allowlist keeps.

<script>window.pwned = 'script element'</script>

<img src="data:," alt="broken" onerror="window.pwned = 'onerror'">

<a id="bad-link" href="javascript:window.pwned = 'javascript: link'">click me</a>

<iframe srcdoc="<script>parent.pwned = 'iframe'</script>"></iframe>

<details open ontoggle="window.pwned = 'ontoggle'"><summary>More</summary>Kept text.</details>

<svg><script>window.pwned = 'svg script'</script></svg>

<object data="javascript:window.pwned = 'object'"></object>
`;

let site: ServedSite;
let browser: Browser;

beforeAll(async () => {
  const root = copyFixture('basic');
  writeFileSync(join(root, 'content', 'guide', 'hostile.md'), HOSTILE);
  const run = runDocs(['build'], { cwd: root });
  if (run.code !== 0) throw new Error(run.stderr);
  site = await serveDist(join(root, 'dist'));
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe('safe output', () => {
  it('runs no script injected through markdown, and the site’s own scripts break no policy', async () => {
    const page = await openPage(browser);
    await page.addInitScript(() => {
      const state = window as unknown as { violations: string[] };
      state.violations = [];
      document.addEventListener('securitypolicyviolation', (event) => state.violations.push(`${event.violatedDirective} ${event.blockedURI}`));
    });
    const problems = collectProblems(page);
    await page.goto(`${site.origin}/guide/hostile`);
    await waitForHydration(page);
    expect(await page.locator('details summary').textContent()).toBe('More');
    await page.click('#user-content-bad-link');
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { pwned?: string }).pwned)).toBeUndefined();
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('blocks an inline script that got into the page by any other way (the policy is in force)', async () => {
    const page = await openPage(browser);
    await page.goto(`${site.origin}/guide`);
    await waitForHydration(page);
    const policy = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
    expect(policy).toContain("script-src 'self' 'sha256-");
    expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
    const blocked = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          document.addEventListener('securitypolicyviolation', (event) => resolve(event.violatedDirective), { once: true });
          const script = document.createElement('script');
          script.textContent = "window.pwned = 'inserted'";
          document.body.append(script);
        }),
    );
    expect(blocked).toBe('script-src-elem');
    expect(await page.evaluate(() => (window as unknown as { pwned?: string }).pwned)).toBeUndefined();
    await page.context().close();
  });
});
