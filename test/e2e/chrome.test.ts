import type { Browser, Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { HydrationData, Manifest, SidebarItem } from '../../runtime/manifest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openPage, usePortal, waitForHydration } from '../support/browser';

const portal = usePortal();

const GIT = '/backend/onboarding/git';
const AUTH = '/backend/backend/authentication';
/** The navbar of spec §2, in order. */
const NAVBAR = [
  ['Internal wiki', '/'],
  ['Backend', '/backend/onboarding'],
  ['Contentproviders', '/contentproviders/onboarding'],
  ['24 urenloop', '/24urenloop'],
  ['Infrastructure', '/infrastructure/onboarding'],
  ['Frontend', '/frontend/onboarding'],
  ['Onboarding', '/onboarding'],
];
const DARK_BACKGROUND = 'rgb(27, 27, 29)';
const LIGHT_BACKGROUND = 'rgb(255, 255, 255)';

async function open(path: string, width = 1280, options: Parameters<Browser['newContext']>[0] = {}): Promise<Page> {
  const page = await openPage(portal.browser, { viewport: { width, height: 800 }, ...options });
  page.setDefaultTimeout(10_000);
  await page.goto(portal.site.origin + path);
  await waitForHydration(page);
  return page;
}

async function storageKeys(page: Page): Promise<HydrationData['site']['storageKeys']> {
  return page.evaluate(() => (JSON.parse(document.getElementById('__DOCS_DATA__')!.textContent!) as HydrationData).site.storageKeys);
}

async function bodyBackground(page: Page): Promise<string> {
  return page.evaluate(() => getComputedStyle(document.body).backgroundColor);
}

/** Relative luminance of a computed `rgb(…)` colour, 0 (black) to 1 (white). */
function luminance(colour: string): number {
  const [r, g, b] = (colour.match(/\d+(\.\d+)?/g) ?? []).map(Number).map((channel) => channel / 255);
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

describe('navbar', () => {
  it('shows the seven items, the active section and the right-hand items from 996 px', async () => {
    const page = await open(AUTH, 1200);
    const items = page.locator('.navbar-items a');
    expect(await items.evaluateAll((links) => links.map((link) => [link.textContent, link.getAttribute('href')]))).toEqual(NAVBAR);
    for (const link of await items.all()) expect(await link.isVisible()).toBe(true);
    expect(await page.locator('.navbar-items a.active').textContent()).toBe('Backend');
    // An icon link at laptop widths (issue 15): found by its accessible name, as a screen reader would.
    const repository = page.locator('.navbar-right').getByRole('link', { name: 'Repository', exact: true });
    expect(await repository.getAttribute('href')).toBe('https://git.quad.example/quad/docs');
    expect(await repository.getAttribute('target')).toBe('_blank');
    expect(await repository.getAttribute('rel')).toMatch(/\bnoopener\b/);
    expect(await page.locator('.navbar-right', { hasText: 'Log out' }).isVisible()).toBe(true);
    expect(await page.locator('.navbar-toggle').isVisible()).toBe(false);
    await page.setViewportSize({ width: 996, height: 800 });
    expect(await page.locator('.navbar-toggle').isVisible()).toBe(false);
    await page.setViewportSize({ width: 995, height: 800 });
    expect(await page.locator('.navbar-toggle').isVisible()).toBe(true);
    expect(await page.locator('.navbar-items').isVisible()).toBe(false);
    await page.context().close();
  });

  it('lists only English (en-GB) in the locale dropdown', async () => {
    const page = await open(GIT);
    await page.getByRole('button', { name: 'Language: en-GB (English)' }).click();
    await expect.poll(() => page.locator('.dropdown-menu a').allTextContents()).toEqual(['English (en-GB)']);
    await page.keyboard.press('Escape');
    await expect(page.locator('.dropdown-menu').count()).resolves.toBe(0);
    await page.context().close();
  });

  it('closes a dropdown when focus leaves it, and moves through it with the arrow keys', async () => {
    const page = await open(GIT);
    const language = page.getByRole('button', { name: 'Language: en-GB (English)' });
    await language.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => language.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('English (en-GB)');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.dropdown-menu').count()).toBe(0);
    expect(await language.evaluate((element) => element === document.activeElement)).toBe(true);
    // Open, then Tab past its one link to the version button: the language menu closes.
    await page.keyboard.press('Enter');
    await expect.poll(() => language.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Version: Next');
    await expect.poll(() => language.getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator('.dropdown-menu').count()).toBe(0);
    await page.context().close();
  });

  it('lists only Next in the version dropdown and keeps the choice in localStorage', async () => {
    const page = await open(GIT);
    const keys = await storageKeys(page);
    await page.getByRole('button', { name: 'Version: Next' }).click();
    await expect.poll(() => page.locator('.dropdown-menu a').allTextContents()).toEqual(['Next']);
    await page.locator('.dropdown-menu a', { hasText: 'Next' }).click();
    await expect(page.locator('.dropdown-menu').count()).resolves.toBe(0);
    expect(await page.evaluate((key) => localStorage.getItem(key), keys.version)).toBe('current');
    await page.reload();
    await waitForHydration(page);
    expect(await page.evaluate((key) => localStorage.getItem(key), keys.version)).toBe('current');
    expect(await page.locator('.dropdown-toggle', { hasText: 'Next' }).isVisible()).toBe(true);
    await page.context().close();
  });

  it('opens a drawer with the navbar items and the current sidebar below 996 px', async () => {
    const page = await open(GIT, 800);
    expect(await page.locator('.sidebar').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open the menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    expect(await drawer.isVisible()).toBe(true);
    expect(await drawer.locator('.drawer-items a').allTextContents()).toEqual(NAVBAR.map(([label]) => label));
    expect(await drawer.locator('.drawer-sidebar a.active').textContent()).toBe('Git and merge requests');
    // The language and version menus are there too (the navbar has no room for them).
    await drawer.getByRole('button', { name: 'Language: en-GB (English)' }).click();
    await expect.poll(() => drawer.locator('.dropdown-menu a').allTextContents()).toEqual(['English (en-GB)']);
    expect(await drawer.locator('.dropdown-menu a').isVisible()).toBe(true);
    // Opening the other closes this one.
    await drawer.getByRole('button', { name: 'Version: Next' }).click();
    await expect.poll(() => drawer.locator('.dropdown-menu a').allTextContents()).toEqual(['Next']);
    // Escape closes the open menu first, the drawer with the next one.
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.locator('.dropdown-menu').count()).toBe(0);
    expect(await drawer.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.count()).toBe(0);
    // A modal: focus starts in it, Tab and Shift+Tab stay in it, and closing gives focus back to the menu button.
    const menu = page.getByRole('button', { name: 'Open the menu' });
    const onMenu = (): Promise<boolean> => menu.evaluate((element) => element === document.activeElement);
    expect(await onMenu()).toBe(true);
    await page.keyboard.press('Enter');
    await drawer.waitFor();
    const inDrawer = (): Promise<boolean> => page.evaluate(() => document.querySelector('[role="dialog"][aria-label="Menu"]')?.contains(document.activeElement) ?? false);
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await inDrawer(), `Shift+Tab ${i + 1}`).toBe(true);
    }
    for (let i = 0; i < 60; i++) await page.keyboard.press('Tab');
    expect(await inDrawer()).toBe(true);
    await drawer.getByRole('button', { name: 'Close the menu' }).click();
    expect(await drawer.count()).toBe(0);
    expect(await onMenu()).toBe(true);
    // A link in the drawer navigates client-side and closes it.
    await page.getByRole('button', { name: 'Open the menu' }).click();
    await drawer.locator('.drawer-sidebar').getByRole('link', { name: 'Authentication', exact: true }).click();
    await page.waitForURL(portal.site.origin + AUTH);
    await expect.poll(() => drawer.count()).toBe(0);
    // The focus the drawer took with it goes to the new page's title, not to <body>.
    await expect.poll(() => page.evaluate(() => document.activeElement?.matches('#main h1') ?? false)).toBe(true);
    await page.getByRole('button', { name: 'Open the menu' }).click();
    expect(await drawer.locator('.drawer-sidebar a.active').textContent()).toBe('Authentication');
    await page.context().close();
  });
});

describe('code blocks on a touch screen', () => {
  it('show the copy button without a hover, and a title bar leaves it room', async () => {
    const page = await open('/backend/backend/ticket-feature/payments', 390, { hasTouch: true, isMobile: true });
    const block = page.locator('.code-block:has(.code-block-title)').first();
    await block.scrollIntoViewIfNeeded();
    const copy = block.locator('.copy-button');
    expect(await copy.evaluate((element) => getComputedStyle(element).opacity)).toBe('1');
    const [button, title] = await Promise.all([copy.boundingBox(), block.locator('.code-block-title').evaluate((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return [...range.getClientRects()].map((rect) => ({ right: rect.right, top: rect.top, bottom: rect.bottom }));
    })]);
    // No line of the title runs under the button.
    for (const line of title) if (line.bottom > button!.y && line.top < button!.y + button!.height) expect(line.right).toBeLessThanOrEqual(button!.x);
    await page.context().close();
  });
});

describe('the drawer when the window widens', () => {
  it('closes once the window reaches the desktop layout, so the page scrolls and Tab leaves <body> again', async () => {
    const page = await open(GIT, 800);
    await page.getByRole('button', { name: 'Open the menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await drawer.waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains('drawer-open'))).toBe(true);
    // A half-screen window maximised.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(() => drawer.count()).toBe(0);
    // The page lock goes with the drawer's effect, which React runs just after the drawer leaves the DOM.
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('drawer-open'))).toBe(false);
    await page.mouse.move(640, 400);
    await page.mouse.wheel(0, 600);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement !== document.body && document.activeElement !== null)).toBe(true);
    // Narrow again: the drawer stays closed until the reader opens it.
    await page.setViewportSize({ width: 800, height: 800 });
    expect(await drawer.count()).toBe(0);
    await page.context().close();
  });
});

describe('the drawer and the toggles, for assistive technology and small screens', () => {
  it('opens the drawer at the current page, keeps the page behind still, and names what the menu button controls', async () => {
    const page = await open('/backend/backend/ticket-feature/payments', 390);
    const menu = page.getByRole('button', { name: 'Open the menu' });
    expect(await menu.getAttribute('aria-controls')).toBeNull();
    await menu.click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await drawer.waitFor();
    expect(await menu.getAttribute('aria-controls')).toBe(await drawer.getAttribute('id'));
    // The current page's link is in view in the drawer, not 1,200 px down.
    const active = await drawer.locator('.drawer-sidebar a.active').boundingBox();
    expect(active!.y).toBeGreaterThanOrEqual(0);
    expect(active!.y + active!.height).toBeLessThanOrEqual(800);
    // A wheel over the backdrop, or past the drawer's end, does not scroll the page behind.
    await page.mouse.move(380, 400);
    await page.mouse.wheel(0, 1200);
    await page.mouse.move(100, 400);
    for (let i = 0; i < 10; i++) await page.mouse.wheel(0, 2000);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => scrollY)).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.count()).toBe(0);
    // Closed, the page scrolls again.
    await page.mouse.wheel(0, 600);
    await expect.poll(() => page.evaluate(() => scrollY)).toBeGreaterThan(0);
    // Breadcrumbs that wrap end a line with their separator, never start one with it.
    const separators = await page.locator('.breadcrumbs li').evaluateAll((items) => items.map((item) => [getComputedStyle(item, '::before').content, getComputedStyle(item, '::after').content]));
    expect(separators.slice(0, -1).every(([before, after]) => before === 'none' && after === '"›"')).toBe(true);
    expect(separators.at(-1)).toEqual(['none', 'none']);
    await page.context().close();
  });

  it('names the mode the colour toggle switches to, and the mode in force', async () => {
    const page = await open(GIT);
    const toggle = page.locator('.theme-toggle');
    await expect.poll(() => toggle.getAttribute('aria-label')).toBe('Switch to light mode (currently dark mode)');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-label')).toBe('Switch to dark mode (currently light mode)');
    expect(await toggle.getAttribute('title')).toBe('Switch to dark mode (currently light mode)');
    await page.context().close();
  });
});

describe('sidebar, TOC and page furniture', () => {
  it('expands every category, offers no way to hide the sidebar, and scrolls the active item into view', async () => {
    const manifest = JSON.parse(readFileSync(join(portal.site.dist, 'manifest.json'), 'utf8')) as Manifest;
    const routes: string[] = [];
    const walk = (items: SidebarItem[]): void => {
      for (const item of items) {
        if (item.route) routes.push(item.route);
        if (item.type === 'category') walk(item.items);
      }
    };
    walk(manifest.sidebars['24urenloop']!);
    const last = routes[routes.length - 1]!;
    const page = await open(last, 1280);
    const sidebar = page.locator('aside.sidebar');
    for (const list of await sidebar.locator('ul').all()) expect(await list.isVisible()).toBe(true);
    expect(await sidebar.locator('button').count()).toBe(0);
    const [box, item] = await Promise.all([sidebar.boundingBox(), sidebar.locator('a.active').boundingBox()]);
    expect(item!.y).toBeGreaterThanOrEqual(box!.y);
    expect(item!.y + item!.height).toBeLessThanOrEqual(box!.y + box!.height);
    expect(await sidebar.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);
    await page.context().close();
  });

  it('highlights the TOC entry of the heading in view while scrolling', async () => {
    const page = await open(AUTH, 1280);
    await page.evaluate(() => document.getElementById('the-otp-flow')!.scrollIntoView());
    await expect.poll(() => page.locator('.toc a.active').getAttribute('href')).toBe('#the-otp-flow');
    await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => page.locator('.toc a.active').getAttribute('href')).toBe('#logging-out-and-revoking-sessions');
    await page.evaluate(() => scrollTo(0, 0));
    await expect.poll(() => page.locator('.toc a.active').getAttribute('href')).toBe('#the-three-headers');
    await page.context().close();
  });

  it('folds the TOC at the top of the page below 1200 px, where the column is not shown, and folds it again once a link is followed', async () => {
    const page = await open(AUTH, 1024);
    expect(await page.locator('.toc-column .toc').isVisible()).toBe(false);
    const folded = page.locator('details.toc-collapsible');
    expect(await folded.isVisible()).toBe(true);
    expect(await folded.getAttribute('open')).toBeNull();
    await folded.getByText('On this page').click();
    const links = folded.getByRole('link');
    expect(await links.evaluateAll((all) => all.map((link) => link.getAttribute('href')))).toEqual(await page.locator('.toc-column .toc a').evaluateAll((all) => all.map((link) => link.getAttribute('href'))));
    await folded.getByRole('link', { name: 'The OTP flow' }).click();
    await expect.poll(() => page.evaluate(() => Math.round(document.getElementById('the-otp-flow')!.getBoundingClientRect().top))).toBeLessThan(150);
    expect(await folded.getAttribute('open')).toBeNull();
    // From 1200 px the column shows it, and the folded copy is gone.
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await folded.isVisible()).toBe(false);
    expect(await page.locator('.toc-column .toc').isVisible()).toBe(true);
    await page.context().close();
  });

  it('follows a change of the page height without a scroll', async () => {
    const page = await open(AUTH, 1280);
    await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => page.locator('.toc a.active').getAttribute('href')).toBe('#logging-out-and-revoking-sessions');
    // Something below grows (an image arriving, a <details> opened): the reader is no longer at the end,
    // and the last section's short heading is still far below the line.
    await page.evaluate(() => document.querySelector('#main .markdown')!.append(Object.assign(document.createElement('div'), { id: 'grown', style: 'height: 2000px' })));
    await expect.poll(() => page.locator('.toc a.active').getAttribute('href')).toBe('#authorisation-in-graphql');
    await page.evaluate(() => document.getElementById('grown')!.remove());
    await expect.poll(() => page.locator('.toc a.active').getAttribute('href')).toBe('#logging-out-and-revoking-sessions');
    await page.context().close();
  });

  it('links every heading to itself and copies a code block, without its line numbers', async () => {
    const page = await open(AUTH, 1280, { permissions: ['clipboard-read', 'clipboard-write'] });
    expect(await page.locator('#the-otp-flow .hash-link').getAttribute('href')).toBe('#the-otp-flow');
    const block = page.locator('.code-block').first();
    await block.hover();
    await block.locator('.copy-button').click();
    await expect.poll(() => block.locator('.copy-button').textContent()).toBe('Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await block.locator('pre').textContent());
    expect(copied.length).toBeGreaterThan(10);
    // The block shows line numbers (showLineNumbers); the copied code holds none.
    expect(await block.getAttribute('class')).toBe('code-block code-block-numbered');
    expect(await block.locator('.line').first().evaluate((line) => getComputedStyle(line, '::before').content)).toBe('counter(line)');
    expect(copied.startsWith('DeviseTokenAuth.setup do |config|\n')).toBe(true);
    await page.context().close();
  });

  it('starts the text of a highlighted code line where the other lines start, and runs its band to the block’s right edge, also scrolled sideways', async () => {
    for (const width of [1280, 390]) {
      const page = await open('/24urenloop/development/getting-started/backend/context', width);
      // The `{6}` block; the portal has no block with both `showLineNumbers` and a highlighted line, so
      // the numbered case adds the class `showLineNumbers` gives the block.
      for (const numbered of [false, true]) {
        const measured = await page.evaluate((numbers) => {
          const block = document.querySelector('.code-block:has(.line.highlighted)')!;
          block.classList.toggle('code-block-numbered', numbers);
          const pre = block.querySelector('pre')!;
          const highlighted = block.querySelector<HTMLElement>('.line.highlighted')!;
          const plain = highlighted.previousElementSibling as HTMLElement;
          const textLeft = (line: HTMLElement): number => {
            const range = document.createRange();
            range.selectNodeContents(line.querySelector('span')!);
            return Math.round(range.getClientRects()[0]!.left * 10) / 10;
          };
          const preBox = pre.getBoundingClientRect();
          const measure = (): { highlighted: number; plain: number; bandRight: number } => ({ highlighted: textLeft(highlighted), plain: textLeft(plain), bandRight: Math.round(highlighted.getBoundingClientRect().right - (preBox.left + pre.clientLeft + pre.clientWidth)) });
          // The lines keep the pre's spacing (1.55 of its font), not 1.55 of the code's smaller one.
          const pitch = Math.round((highlighted.getBoundingClientRect().top - plain.getBoundingClientRect().top) * 10) / 10;
          const spacing = Math.round(parseFloat(getComputedStyle(pre).lineHeight) * 10) / 10;
          const start = { ...measure(), pitch, spacing };
          pre.scrollLeft = pre.scrollWidth;
          const scrolled = { ...measure(), scrolls: pre.scrollWidth > pre.clientWidth };
          pre.scrollLeft = 0;
          return { start, scrolled };
        }, numbered);
        const where = `${width} px${numbered ? ', numbered' : ''}`;
        expect(measured.start.highlighted, `text x, ${where}`).toBe(measured.start.plain);
        expect(measured.start.pitch, `line spacing, ${where}`).toBe(measured.start.spacing);
        // Not short of the block's right edge (past it, hidden, where the block scrolls).
        expect(measured.start.bandRight, `band end vs the block's right edge, ${where}`).toBeGreaterThanOrEqual(0);
        expect(measured.scrolled.highlighted, `text x scrolled, ${where}`).toBe(measured.scrolled.plain);
        expect(measured.scrolled.bandRight, `band end scrolled to the end, ${where}`).toBe(0);
        // At 390 px the block's longest line is wider than the block: the sideways case is real there.
        expect(measured.scrolled.scrolls).toBe(width === 390);
      }
      await page.context().close();
    }
  });

  it('shows the edit link, the last update and previous/next links, and updates them on navigation', async () => {
    const page = await open(GIT);
    expect(await page.locator('.edit-link').getAttribute('href')).toBe('https://git.quad.example/quad/docs/edit/master/content/backend/onboarding/git.md');
    expect(await page.locator('.last-updated').textContent()).toMatch(/^Last updated on \d{1,2} \w+ \d{4}/);
    expect(await page.locator('.pagination-prev').getAttribute('href')).toBe('/backend/onboarding/install');
    await page.locator('.pagination-next').click();
    await page.waitForURL(portal.site.origin + '/backend/onboarding/infrastructure');
    await expect.poll(() => page.locator('.edit-link').getAttribute('href')).toBe('https://git.quad.example/quad/docs/edit/master/content/backend/onboarding/infrastructure.md');
    expect(await page.locator('.pagination-prev').getAttribute('href')).toBe(GIT);
    await page.context().close();
  });
});

describe('colour mode', () => {
  it('is dark by default even when the system prefers light', async () => {
    const page = await open(GIT, 1280, { colorScheme: 'light' });
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    expect(await bodyBackground(page)).toBe(DARK_BACKGROUND);
    await page.context().close();
  });

  it('keeps light after a reload without a flash: the head script applies it before the runtime runs', async () => {
    const page = await open(GIT);
    await page.click('.theme-toggle');
    expect(await bodyBackground(page)).toBe(LIGHT_BACKGROUND);
    // With the runtime blocked only the inline head script can set the mode.
    await page.route('**/assets/app.*.js', (route: Route) => route.abort());
    await page.reload({ waitUntil: 'domcontentloaded' });
    expect(await page.getAttribute('html', 'data-theme')).toBe('light');
    expect(await bodyBackground(page)).toBe(LIGHT_BACKGROUND);
    expect(await page.evaluate(() => document.documentElement.hasAttribute('data-hydrated'))).toBe(false);
    await page.context().close();
  });

  it('keeps code blocks dark in both modes', async () => {
    const page = await open(AUTH);
    const codeBackground = (): Promise<string> => page.locator('.code-block pre').first().evaluate((pre) => getComputedStyle(pre).backgroundColor);
    expect(luminance(await codeBackground())).toBeLessThan(0.25);
    await page.click('.theme-toggle');
    expect(await page.getAttribute('html', 'data-theme')).toBe('light');
    expect(luminance(await codeBackground())).toBeLessThan(0.25);
    await page.context().close();
  });

  it('draws mermaid diagrams in the current mode, redraws them on a switch, and loads mermaid only where needed', async () => {
    const requested: string[] = [];
    const plain = await openPage(portal.browser);
    plain.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await plain.goto(portal.site.origin + GIT);
    await waitForHydration(plain);
    await plain.waitForTimeout(500);
    expect(requested.filter((path) => path.includes('/chunks/mermaid.'))).toEqual([]);
    await plain.context().close();

    const page = await open('/onboarding');
    const diagram = page.locator('[data-mermaid]').first();
    await diagram.locator('svg').waitFor();
    expect(await diagram.getAttribute('data-mermaid-theme')).toBe('dark');
    await page.click('.theme-toggle');
    await expect.poll(() => diagram.getAttribute('data-mermaid-theme')).toBe('default');
    expect(await diagram.locator('svg').count()).toBe(1);
    await page.context().close();
  });

  it('prints a diagram drawn dark in the light colours (dark labels, light boxes), and shows it dark again after', async () => {
    const page = await open('/onboarding');
    const diagram = page.locator('[data-mermaid]').first();
    await diagram.locator('svg').waitFor();
    expect(await diagram.getAttribute('data-mermaid-theme')).toBe('dark');
    // Its light copy is drawn once the page is idle.
    await expect.poll(() => diagram.getAttribute('data-mermaid-print'), { timeout: 20_000 }).toBe('');
    /** The colours of the first box and its label, as the page shows them now. */
    const colours = (): { box: string; label: string } => {
      const node = document.querySelector('[data-mermaid] svg .node')!;
      return { box: getComputedStyle(node.querySelector('rect, polygon, circle, path')!).fill, label: getComputedStyle(node.querySelector('.nodeLabel') ?? node.querySelector('text')!).color };
    };
    const onScreen = await page.evaluate(colours);
    expect(luminance(onScreen.box)).toBeLessThan(0.25);
    expect(luminance(onScreen.label)).toBeGreaterThan(0.5);
    // Printed for real (a PDF: the browser's beforeprint and afterprint), the colours read while it prints.
    await page.evaluate(`addEventListener('beforeprint', () => (window.printedColours = (${colours.toString()})()))`);
    await page.pdf();
    const printed = (await page.evaluate('window.printedColours')) as { box: string; label: string };
    expect(luminance(printed.box)).toBeGreaterThan(0.75);
    expect(luminance(printed.label)).toBeLessThan(0.25);
    expect(await page.evaluate(colours)).toEqual(onScreen);
    expect(await diagram.locator('svg').count()).toBe(1);
    await page.context().close();
  });

  it('keeps a wide diagram legible and lets it scroll sideways in its frame, not the page', async () => {
    // The cluster diagram is some 2,100 px wide: scaled into the column, its labels were 5 px high.
    for (const width of [390, 1280, 1920]) {
      const page = await open('/infrastructure/cwlab/self-hosted-cluster', width);
      const frame = page.locator('.mermaid').first();
      await frame.locator('svg').waitFor();
      const measured = await frame.evaluate((element) => {
        const svg = element.querySelector('svg')!;
        const labels = [...svg.querySelectorAll('.nodeLabel, .edgeLabel')].map((label) => label.getBoundingClientRect().height).filter((height) => height > 0);
        return { scale: svg.getBoundingClientRect().width / svg.viewBox.baseVal.width, smallestLabel: Math.min(...labels), scrolls: element.scrollWidth > element.clientWidth, page: document.documentElement.scrollWidth, tabIndex: (element as HTMLElement).tabIndex };
      });
      // Three quarters of the size the build reserved, which is within a few per cent of the drawing's.
      expect(measured.scale, `${width}`).toBeGreaterThanOrEqual(0.7);
      expect(measured.smallestLabel, `${width}`).toBeGreaterThanOrEqual(10);
      expect(measured.scrolls, `${width}`).toBe(true);
      expect(measured.page, `${width}`).toBe(width);
      // Scrolled from the keyboard too.
      expect(measured.tabIndex).toBe(0);
      await frame.focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => frame.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
      await page.context().close();
    }
  });
});

describe('announcement bar', () => {
  it('stays dismissed across reloads without a flash and comes back for a new id', async () => {
    const page = await open(GIT);
    const bar = page.locator('.announcement');
    expect(await bar.isVisible()).toBe(true);
    expect(await bar.locator('a').getAttribute('href')).toBe('/24urenloop/draaiboeken/update-website');
    await bar.getByRole('button', { name: 'Close' }).click();
    expect(await bar.isVisible()).toBe(false);
    await page.route('**/assets/app.*.js', (route: Route) => route.abort());
    await page.reload({ waitUntil: 'domcontentloaded' });
    expect(await bar.isVisible()).toBe(false);
    await page.unroute('**/assets/app.*.js');
    // A new deployment with a new announcement id.
    await page.route(`${portal.site.origin}/**`, async (route: Route) => {
      if (route.request().resourceType() !== 'document') return route.continue();
      const response = await route.fetch();
      await route.fulfill({ response, body: (await response.text()).replaceAll('race-runbook-2025', 'race-runbook-2026') });
    });
    await page.reload();
    await waitForHydration(page);
    expect(await bar.isVisible()).toBe(true);
    await page.context().close();
  });
});

describe('code sample tabs', () => {
  const LOGIN = '/backend/api/user-authentication/user-login';
  const visiblePanels = (page: Page): Promise<(string | null)[]> =>
    page.locator('.tabs').first().locator('.tab-panel').evaluateAll((panels) => panels.filter((panel) => getComputedStyle(panel).display !== 'none').map((panel) => panel.getAttribute('data-tab')));

  it('shows curl first, switches on a click, and remembers the language across pages and reloads', async () => {
    const page = await open(LOGIN);
    expect(await visiblePanels(page)).toEqual(['curl']);
    await page.getByRole('tab', { name: 'python' }).first().click();
    // At once, or as soon as the tabs island is in (the test below).
    await expect.poll(() => visiblePanels(page)).toEqual(['python']);
    expect(await page.getByRole('tab', { name: 'python' }).first().getAttribute('aria-selected')).toBe('true');
    const keys = await storageKeys(page);
    expect(await page.evaluate((key) => localStorage.getItem(key), keys.codeTab)).toBe('python');
    // Another operation, reached client-side.
    await page.click('.sidebar a[href="/backend/api/user-authentication/user-registration"]');
    await page.waitForURL(portal.site.origin + '/backend/api/user-authentication/user-registration');
    await expect.poll(() => visiblePanels(page)).toEqual(['python']);
    // And after a reload with the runtime blocked: the head script and the stylesheet alone show it.
    await page.route('**/assets/app.*.js', (route: Route) => route.abort());
    await page.reload({ waitUntil: 'domcontentloaded' });
    expect(await visiblePanels(page)).toEqual(['python']);
    await page.context().close();
  });

  /** The login operation's page with the tabs island held back (a slow link) until `release`; it has been asked for. */
  async function openWithTabsHeld(): Promise<{ page: Page; release: () => void }> {
    const page = await openPage(portal.browser, { viewport: { width: 1280, height: 800 } });
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = false;
    await page.route('**/assets/chunks/tabs.*.js', async (route: Route) => {
      asked = true;
      await held;
      await route.continue();
    });
    await page.goto(portal.site.origin + LOGIN);
    await waitForHydration(page);
    await expect.poll(() => asked).toBe(true);
    return { page, release };
  }

  it('keeps a tab clicked, or an arrow key pressed on one, before the tabs island is in, and gives it to the island once it is', async () => {
    // The reader clicks python before the island comes.
    const clicked = await openWithTabsHeld();
    await clicked.page.getByRole('tab', { name: 'python' }).first().click();
    expect(await visiblePanels(clicked.page)).toEqual(['curl']);
    clicked.release();
    await expect.poll(() => visiblePanels(clicked.page)).toEqual(['python']);
    expect(await clicked.page.getByRole('tab', { name: 'python' }).first().getAttribute('aria-selected')).toBe('true');
    await clicked.page.context().close();

    // The same for a key: the arrow pressed on the selected tab before the island came moves to the next.
    const keyed = await openWithTabsHeld();
    await keyed.page.locator('.tabs').first().getByRole('tab').first().focus();
    await keyed.page.keyboard.press('ArrowRight');
    expect(await visiblePanels(keyed.page)).toEqual(['curl']);
    keyed.release();
    await expect.poll(() => visiblePanels(keyed.page)).toEqual(['ruby']);
    expect(await keyed.page.evaluate(() => document.activeElement?.getAttribute('data-tab'))).toBe('ruby');
    await keyed.page.context().close();
  });

  it('follows the tabs keyboard pattern: Tab reaches the selected tab only, the arrows, Home and End select another', async () => {
    const page = await open(LOGIN);
    const tabs = page.locator('.tabs').first().getByRole('tab');
    expect(await tabs.evaluateAll((all) => all.map((tab) => (tab as HTMLElement).tabIndex))).toEqual([0, -1, -1, -1]);
    await tabs.first().focus();
    const focused = (): Promise<string | null> => page.evaluate(() => document.activeElement?.getAttribute('data-tab') ?? null);
    await page.keyboard.press('ArrowRight');
    // At once, or as soon as the tabs island is in (a key pressed before it comes is given to it).
    await expect.poll(focused).toBe('ruby');
    expect(await visiblePanels(page)).toEqual(['ruby']);
    expect(await tabs.evaluateAll((all) => all.map((tab) => (tab as HTMLElement).tabIndex))).toEqual([-1, 0, -1, -1]);
    await page.keyboard.press('End');
    expect(await focused()).toBe('python');
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe('curl');
    await page.keyboard.press('ArrowLeft');
    expect(await focused()).toBe('python');
    await page.keyboard.press('Home');
    expect(await focused()).toBe('curl');
    expect(await visiblePanels(page)).toEqual(['curl']);
    // Tab leaves the tab list for the panel's content, not the next tab.
    await page.keyboard.press('Tab');
    expect(await focused()).toBeNull();
    await page.context().close();
  });
});
