/**
 * What a reader sees at every width (issue 15): from 996 px every navbar control is on screen and
 * clickable with no sideways scroll, below it the drawer; the not-found page marks no section. Each
 * width × page × colour mode is saved to test/.tmp/screenshots/ for a reviewer (the workflow uploads it).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, usePortal, waitForHydration } from '../support/browser';
import { REPO } from '../support/site';
import type { Manifest } from '../../runtime/manifest';

const portal = usePortal();
const SHOTS = join(REPO, 'test', '.tmp', 'screenshots');
const WIDTHS = [390, 996, 1100, 1280, 1366, 1440, 1920];
const PAGES: [string, string][] = [
  ['doc', '/backend/onboarding/git'],
  ['api', '/backend/api/user-authentication/user-login'],
  // A request body whose schema tree nests long property names five levels deep.
  ['api-schema', '/backend/api/cp-authentication/push-data-to-backend'],
  ['not-found', '/no/such/page'],
];
const ITEMS = ['Internal wiki', 'Backend', 'Contentproviders', '24 urenloop', 'Infrastructure', 'Frontend', 'Onboarding'];

/**
 * The controls that are not where `elementFromPoint` at their centre finds them (covered, off screen,
 * hidden). `scroll` first scrolls each into view vertically (a long drawer), never sideways.
 */
async function unreachable(page: Page, selectors: string[], scroll = false): Promise<string[]> {
  return page.evaluate(([list, scrollFirst]) => {
    const missing: string[] = [];
    for (const selector of list as string[]) {
      const element = document.querySelector(selector);
      if (scrollFirst) element?.scrollIntoView({ block: 'center', inline: 'nearest' });
      const box = element?.getBoundingClientRect();
      if (!element || !box || box.width === 0 || box.height === 0) {
        missing.push(`${selector}: not shown`);
        continue;
      }
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      const hit = document.elementFromPoint(x, y);
      if (x < 0 || x > innerWidth || !hit || !(hit === element || element.contains(hit))) missing.push(`${selector}: not clickable at ${Math.round(x)},${Math.round(y)}`);
    }
    return missing;
  }, [selectors, scroll] as const);
}

describe('the layout at every width', () => {
  it('fits the navbar from 996 px (seven items, search, language, version, repository, log out, colour mode) with room to spare, and the drawer below', async () => {
    mkdirSync(SHOTS, { recursive: true });
    const problems: string[] = [];
    for (const theme of ['dark', 'light'] as const) {
      const page = await openPage(portal.browser, { viewport: { width: 1280, height: 900 } });
      await page.addInitScript((value) => localStorage.setItem('quad-docs-theme', value), theme);
      // Each page is loaded at the first width and resized through the others, as a reader's window is;
      // dark runs from the narrowest width, light from the widest, so both ends are also a fresh load.
      const widths = theme === 'dark' ? WIDTHS : [...WIDTHS].reverse();
      for (const [name, path] of PAGES) {
        for (const [step, width] of widths.entries()) {
          await page.setViewportSize({ width, height: 900 });
          if (step === 0) {
            await page.goto(portal.site.origin + path);
            await waitForHydration(page);
          } else {
            // The layout the new width gives, once the runtime's listeners have run, from the page's top.
            await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(scrollTo(0, 0))))));
          }
          const scroll = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
          if (scroll > 0) problems.push(`${name} at ${width} px (${theme}): scrolls sideways by ${scroll} px`);
          if (width >= 996) {
            const items = ITEMS.map((_, i) => `.navbar-items li:nth-child(${i + 1}) a`);
            const controls = [...items, '.navbar .search-button', '.navbar-right .dropdown:nth-child(1) button', '.navbar-right .dropdown:nth-child(2) button', '.navbar-right a[aria-label="Repository"]', '.navbar-right .logout', '.theme-toggle'];
            for (const miss of await unreachable(page, controls)) problems.push(`${name} at ${width} px (${theme}): ${miss}`);
            const labels = await page.locator('.navbar-items a').allTextContents();
            if (labels.join('|') !== ITEMS.join('|')) problems.push(`${name} at ${width} px: items ${labels.join(', ')}`);
            if (width === 996) {
              // Room to spare at the narrowest desktop width, search button included.
              const spare = await page.evaluate(() => {
                const inner = document.querySelector('.navbar-inner')!;
                const used = [...inner.children].reduce((sum, child) => sum + child.getBoundingClientRect().width, 0);
                const gaps = parseFloat(getComputedStyle(inner).columnGap || '0') * (inner.children.length - 1);
                const padding = parseFloat(getComputedStyle(inner).paddingLeft) + parseFloat(getComputedStyle(inner).paddingRight);
                const right = document.querySelector('.navbar-right')!;
                return inner.getBoundingClientRect().width - padding - gaps - used + right.getBoundingClientRect().width - [...right.children].reduce((sum, child) => sum + child.getBoundingClientRect().width, 0) - parseFloat(getComputedStyle(right).columnGap || '0') * (right.children.length - 1);
              });
              if (spare < 16) problems.push(`${name} at 996 px: only ${Math.round(spare)} px to spare in the navbar`);
            }
          } else {
            await page.locator('.navbar-toggle').click();
            await page.locator('.drawer').waitFor();
            // Once it has slid in.
            await expect.poll(() => page.evaluate(() => document.querySelector('.drawer-items a')!.getBoundingClientRect().left), { timeout: 5000 }).toBeGreaterThanOrEqual(0);
            for (const miss of await unreachable(page, ['.drawer-search', '.drawer-items li:nth-child(1) a', '.drawer .logout'], true)) problems.push(`${name} at ${width} px drawer: ${miss}`);
            await page.keyboard.press('Escape');
          }
          await page.screenshot({ path: join(SHOTS, `${name}-${width}-${theme}.png`) });
        }
      }
      await page.context().close();
    }
    expect(problems).toEqual([]);
  });

  it('keeps the text of a schema tree nested five deep readable on a phone: lists indent less', async () => {
    const page = await openPage(portal.browser, { viewport: { width: 390, height: 844 } });
    await page.goto(`${portal.site.origin}/backend/api/cp-authentication/push-data-to-backend`);
    await waitForHydration(page);
    const deepest = await page.evaluate(() => {
      const items = [...document.querySelectorAll('.markdown li')].filter((li) => !li.querySelector('ul, ol'));
      const depth = (li: Element): number => { let n = 0; for (let at: Element | null = li; at; at = at.parentElement) if (at.matches('ul, ol')) n++; return n; };
      const item = items.reduce((best, li) => (depth(li) > depth(best) ? li : best));
      return { depth: depth(item), width: item.getBoundingClientRect().width, content: document.querySelector('.markdown')!.getBoundingClientRect().width };
    });
    expect(deepest.depth).toBeGreaterThanOrEqual(5);
    // At the browser's 40 px a level, seven levels left the text 78 of 358 px; now a level takes 16–20 px.
    expect(deepest.width).toBeGreaterThanOrEqual(deepest.content - deepest.depth * 20);
    await page.context().close();
  });

  it('lets no page of the portal scroll sideways on a 320 px phone: long words in headings and Previous/Next labels wrap', async () => {
    const manifest = JSON.parse(readFileSync(join(portal.site.dist, 'manifest.json'), 'utf8')) as Manifest;
    const page = await openPage(portal.browser, { viewport: { width: 320, height: 640 } });
    const wide: string[] = [];
    const [first, ...others] = manifest.routes.map((route) => route.path);
    await page.goto(portal.site.origin + encodeURI(first!));
    await waitForHydration(page);
    for (const path of [first!, ...others]) {
      if (path !== first) {
        // Reached as a reader reaches most pages, by a link (the router renders the page the hydrated
        // one would be; a full load of each took three times as long): the heading shown is the new page's.
        await page.evaluate((to) => {
          Object.assign(document.querySelector('#main h1')!, { left: true });
          const link = Object.assign(document.createElement('a'), { href: to });
          document.body.append(link);
          link.click();
          link.remove();
        }, encodeURI(path));
        await page.waitForFunction((to) => location.pathname === to && !('left' in (document.querySelector('#main h1') ?? { left: true })), encodeURI(path));
      }
      const scroll = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      if (scroll > 0) wide.push(`${path}: ${scroll} px`);
    }
    // /backend/onboarding/tipsandtricks scrolled 40 px (its Next card), /internal-wiki/draaiboeken 11 px (a heading's # link).
    expect(wide).toEqual([]);
    await page.context().close();
  }, 240_000);

  it('marks no navbar item as current on the not-found page, loaded or reached by a link', async () => {
    const page = await openPage(portal.browser);
    await page.goto(`${portal.site.origin}/no/such/page`);
    await waitForHydration(page);
    expect(await page.locator('.navbar-items [aria-current], .navbar-items .active').count()).toBe(0);
    await page.goto(`${portal.site.origin}/backend/onboarding/git`);
    await waitForHydration(page);
    expect(await page.locator('.navbar-items [aria-current="page"]').textContent()).toBe('Backend');
    await page.evaluate(() => {
      const link = document.createElement('a');
      link.href = '/gone/for/good';
      link.textContent = 'gone';
      link.id = 'gone';
      document.querySelector('#main')!.prepend(link);
    });
    await page.click('#gone');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await page.locator('.navbar-items [aria-current], .navbar-items .active').count()).toBe(0);
    await page.context().close();
  });
});
