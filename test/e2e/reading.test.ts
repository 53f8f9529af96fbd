/**
 * The reader's own settings and habits (probe 6-A): a larger default font size, a long word in a title,
 * printing, reduced motion, and what the page scrolls to landing below the sticky navbar.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, usePortal, waitForHydration } from '../support/browser';

const portal = usePortal();

async function open(path: string, width: number, options: Parameters<typeof openPage>[1] = {}): Promise<Page> {
  const page = await openPage(portal.browser, { viewport: { width, height: 800 }, ...options });
  page.setDefaultTimeout(10_000);
  await page.goto(portal.site.origin + path);
  await waitForHydration(page);
  return page;
}

/** How far the page scrolls sideways, and the right edge of the navbar's last item. */
function overflow(page: Page): Promise<{ page: number; navbarEnd: number }> {
  return page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    navbarEnd: Math.max(...[...document.querySelectorAll('.navbar-inner > *')].map((element) => element.getBoundingClientRect().right)),
  }));
}

describe("the reader's settings", () => {
  it("follows the browser's font size (Chrome's Large, 20 px): the text grows, the navbar fits at every laptop width", async () => {
    for (const width of [996, 1024, 1280, 1366, 1440, 1920]) {
      const page = await open('/backend/onboarding/install', width);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Page.setFontSizes', { fontSizes: { standard: 20 } });
      await page.reload();
      await waitForHydration(page);
      expect(await page.evaluate(() => getComputedStyle(document.querySelector('.markdown p')!).fontSize), `${width}`).toBe('20px');
      const measured = await overflow(page);
      expect(measured.page, `${width}`).toBe(width);
      expect(measured.navbarEnd, `${width}`).toBeLessThanOrEqual(width);
      // Log out stays reachable: in the navbar, or in the drawer the narrower layout opens.
      const logOut = page.getByRole('button', { name: 'Log out' }).or(page.getByRole('link', { name: 'Log out' }));
      if (!(await logOut.first().isVisible())) {
        await page.locator('.navbar-toggle').click();
        await page.locator('.drawer').getByText('Log out').waitFor();
      }
      await page.context().close();
    }
  });

  it('breaks a long word in a title, a link or a path instead of scrolling the page sideways or running under the table of contents', async () => {
    for (const width of [320, 390, 1280]) {
      const page = await open('/backend/backend/environment-variables', width);
      await page.evaluate(() => {
        document.querySelector('#main h1')!.textContent = 'Rotating ACTIVE_RECORD_ENCRYPTION_PRIMARY_KEY_FOR_EVERY_ENVIRONMENT';
        const paragraph = document.querySelector('#main .markdown p')!;
        paragraph.append(' See https://vault.quad.example/app/passwords/view/0b1c2d3e-4f5a-6b7c-8d9e-0f1a2b3c4d5e and app/models/concerns/encryptable_attributes_with_rotation_and_more.rb');
        const link = document.querySelector('.sidebar .sidebar-link.active, .toc-link');
        if (link) link.textContent = 'ACTIVE_RECORD_ENCRYPTION_PRIMARY_KEY_FOR_EVERY_ENVIRONMENT';
      });
      const measured = await page.evaluate(() => {
        const title = document.querySelector('#main h1')!.getBoundingClientRect();
        const toc = document.querySelector('.toc-column');
        const tocLeft = toc && getComputedStyle(toc).display !== 'none' ? toc.getBoundingClientRect().left : Infinity;
        const boxes = [...document.querySelectorAll('.sidebar, .toc')].map((box) => box.scrollWidth - box.clientWidth);
        return { page: document.documentElement.scrollWidth, titleRight: title.right, tocLeft, sideways: Math.max(0, ...boxes) };
      });
      expect(measured.page, `${width}`).toBe(width);
      expect(measured.titleRight, `${width}`).toBeLessThanOrEqual(Math.min(width, measured.tocLeft));
      expect(measured.sideways, `${width}`).toBe(0);
      await page.context().close();
    }
  });

  it('scrolls what it brings into view (a focused link, a footnote, a fragment) below the sticky navbar', async () => {
    const page = await open('/backend/backend/environment-variables', 1280);
    await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
    const { top, navbarBottom } = await page.evaluate(() => {
      const links = [...document.querySelectorAll<HTMLElement>('#main .markdown td a, #main .markdown p a')];
      const link = links[Math.floor(links.length / 3)]!;
      link.scrollIntoView();
      // The navbar as it sticks to the top once the page has scrolled (the announcement above it gone).
      return { top: link.getBoundingClientRect().top, navbarBottom: document.querySelector('.navbar')!.getBoundingClientRect().bottom };
    });
    expect(navbarBottom).toBeGreaterThan(40);
    expect(top).toBeGreaterThanOrEqual(navbarBottom);
    await page.context().close();
  });

  it('keeps the reader at their place when the focus moves through what stays in view: the search closing, the drawer, Shift+Tab into the navbar', async () => {
    for (const width of [1280, 390]) {
      const page = await open('/backend/onboarding/git', width);
      const at = (): Promise<number> => page.evaluate(() => Math.round(scrollY));
      const place = async (): Promise<number> => {
        await page.evaluate(() => scrollTo(0, 1500));
        await expect.poll(at).toBe(1500);
        return at();
      };
      // The search, opened from the keyboard and closed with Escape: the focus goes back to where it was.
      await place();
      await page.keyboard.press('Control+K');
      await page.getByRole('combobox', { name: 'Search the documentation' }).waitFor();
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
      expect(await at(), `${width} px: search closed`).toBe(1500);
      if (width < 996) {
        // The drawer takes the focus as it opens and gives it back to its button as it closes.
        await place();
        await page.getByRole('button', { name: 'Open the menu' }).click();
        await page.getByRole('button', { name: 'Close the menu' }).waitFor();
        expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Close the menu');
        await page.keyboard.press('Escape');
        await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
        expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Open the menu');
        expect(await at(), `${width} px: drawer opened and closed`).toBe(1500);
      } else {
        // From the sidebar back into the navbar, one control at a time.
        await place();
        await page.evaluate(() => document.querySelector<HTMLElement>('.sidebar a')!.focus({ preventScroll: true }));
        for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+Tab');
        expect(await page.evaluate(() => !!document.activeElement?.closest('.navbar'))).toBe(true);
        expect(await at(), `${width} px: Shift+Tab into the navbar`).toBe(1500);
      }
      await page.context().close();
    }
  });

  it('prints the article alone, dark on white, nothing cut: no navbar, sidebar or contents, code and tables unclipped', async () => {
    const page = await open('/backend/backend/environment-variables', 1280);
    await page.emulateMedia({ media: 'print' });
    const printed = await page.evaluate(() => {
      const shown = (selector: string): boolean => [...document.querySelectorAll(selector)].some((element) => getComputedStyle(element).display !== 'none');
      const paragraph = getComputedStyle(document.querySelector('.markdown p')!);
      const token = document.querySelector('.shiki span[style]');
      return {
        chrome: ['.navbar', '.sidebar', '.toc-column', '.announcement', '.pagination', '.footer'].filter(shown),
        text: paragraph.color,
        background: getComputedStyle(document.body).backgroundColor,
        tables: [...document.querySelectorAll('.table-wrapper')].map((wrapper) => getComputedStyle(wrapper).overflowX),
        token: token ? getComputedStyle(token).color : 'rgb(0, 0, 0)',
      };
    });
    expect(printed.chrome).toEqual([]);
    expect(printed.text).toBe('rgb(0, 0, 0)');
    expect(printed.background).toBe('rgb(255, 255, 255)');
    expect(printed.tables.length).toBeGreaterThan(0);
    expect(new Set(printed.tables)).toEqual(new Set(['visible']));
    expect(printed.token).toBe('rgb(0, 0, 0)');
    await page.context().close();
  });

  it('lets nothing slide or pulse for ever when the reader asks for less motion', async () => {
    const page = await open('/backend/onboarding/git', 390, { reducedMotion: 'reduce' });
    await page.locator('.navbar-toggle').click();
    const drawer = page.locator('.drawer');
    await drawer.waitFor();
    const animation = await drawer.evaluate((element) => ({ duration: parseFloat(getComputedStyle(element).animationDuration), count: getComputedStyle(element).animationIterationCount }));
    expect(animation.duration).toBeLessThan(0.001);
    const signedOut = await openPage(portal.browser, { viewport: { width: 390, height: 800 }, reducedMotion: 'reduce' }, { signedIn: false });
    await signedOut.goto(`${portal.site.origin}/backend/onboarding/git`);
    await signedOut.getByRole('button', { name: /log in/i }).first().waitFor();
    const counts = await signedOut.evaluate(() => [...document.querySelectorAll('*')].map((element) => getComputedStyle(element).animationIterationCount).filter((count) => count === 'infinite'));
    expect(counts).toEqual([]);
    await signedOut.context().close();
    await page.context().close();
  });
});
