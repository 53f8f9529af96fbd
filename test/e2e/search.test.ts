/**
 * Search in the browser (issue 16): opened from the keyboard, results as the reader types, Enter opens
 * the page at its heading by a client-side navigation, Esc closes and gives focus back; nothing of
 * search is fetched for a signed-out reader; the dialog passes axe-core in both colour modes.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, usePortal, waitForHydration } from '../support/browser';

const portal = usePortal();
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Holds back the answers to requests for `url` (a glob) until the returned function is called. */
async function hold(page: Page, url: string): Promise<() => void> {
  let release = (): void => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/**
 * A page at `width` px searching for `query`, its document chunks (the excerpts' text) answering only
 * once the test calls `release`: the results shown from the term shards alone.
 */
async function searchWithChunksHeld(width: number, query: string): Promise<{ page: Page; release: () => void }> {
  const page = await openPage(portal.browser, { viewport: { width, height: 800 } });
  const release = await hold(page, '**/assets/search/d-*');
  await page.goto(`${portal.site.origin}/backend/onboarding/git`);
  await waitForHydration(page);
  await page.keyboard.press('Control+K');
  await page.getByRole('combobox', { name: 'Search the documentation' }).fill(query);
  await page.locator(`[role="listbox"][data-query="${query}"]`).waitFor();
  return { page, release };
}

describe('search', () => {
  it('opens on Ctrl+K, lists a page by a word of its body, and Enter navigates client-side to the heading', async () => {
    const page = await openPage(portal.browser);
    await page.goto(`${portal.site.origin}/backend/onboarding/git`);
    await waitForHydration(page);
    // Set on this document only: a full page load would lose it.
    await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'same document'));
    const searchFiles: string[] = [];
    page.on('request', (request) => request.url().includes('/assets/search/') && searchFiles.push(new URL(request.url()).pathname));
    expect(searchFiles).toEqual([]);

    await page.keyboard.press('Control+K');
    const field = page.getByRole('combobox', { name: 'Search the documentation' });
    await expect.poll(() => field.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.getByText('Find any page, heading or API operation').waitFor();
    // "kwijting" is in the body of the secretary's page only, under "De algemene vergadering".
    await field.pressSequentially('kwijting');
    const options = page.getByRole('option');
    await expect.poll(() => options.count()).toBe(1);
    expect(await options.first().getAttribute('aria-selected')).toBe('true');
    expect(await field.getAttribute('aria-activedescendant')).toBe(await options.first().getAttribute('id'));
    const text = await options.first().innerText();
    expect(text).toContain('Secretaris');
    expect(text).toContain('Internal wiki › De algemene vergadering');
    await page.locator('[role="listbox"][data-complete]').waitFor();
    expect(await options.first().locator('mark').allTextContents()).toEqual(['kwijting']);

    await page.keyboard.press('Enter');
    await page.waitForURL(`${portal.site.origin}/internal-wiki/secretaris#de-algemene-vergadering`);
    await page.getByRole('heading', { level: 1, name: 'Secretaris' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('same document');
    expect(await page.getByRole('dialog', { name: 'Search the documentation' }).count()).toBe(0);
    await expect
      .poll(() => page.evaluate(() => Math.round(document.getElementById('de-algemene-vergadering')!.getBoundingClientRect().top)))
      .toBeLessThan(200);
    // The focus is at the section opened, as after any link to it: the next Tab goes on from there, not from the navbar.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('de-algemene-vergadering');
    // Only what the query needed: the entry point, one shard, the chunk of the result.
    expect(searchFiles[0]).toBe('/assets/search/index.json');
    expect(searchFiles.length).toBeLessThanOrEqual(4);
    await page.context().close();
  });

  it.each([1280, 390])('shows the first results from the shard before their excerpts are in, and the excerpts in place when they come, no row moving (%i px)', async (width) => {
    const { page, release } = await searchWithChunksHeld(width, 'passbolt');
    // The results (a ninth option, More results, follows them).
    const options = page.locator('a[role="option"]');
    expect(await options.count()).toBe(8);
    const rows = await options.evaluateAll((links) => links.map((link) => [link.querySelector('.search-result-title')!.textContent, link.querySelector('.search-result-path')!.textContent, link.getAttribute('href')]));
    expect(rows.every(([title, path, href]) => title && path && href?.startsWith('/'))).toBe(true);
    expect(await page.locator('.search-result-pending').count()).toBe(8);
    expect(await page.locator('[role="listbox"][data-complete]').count()).toBe(0);
    // The page named by the query first, its title's match marked (and a heading's, where the match is).
    expect(rows[0]![0]).toBe('Passbolt');
    expect(await options.first().locator('.search-result-title mark').allTextContents()).toEqual(['Passbolt']);
    expect(await page.locator('.search-result-path mark', { hasText: 'Passbolt' }).count()).toBeGreaterThan(0);
    // The reader can already choose.
    await page.keyboard.press('ArrowDown');
    expect(await options.nth(1).getAttribute('aria-selected')).toBe('true');
    // Where each row is, and so where a click lands: the same once the excerpts are in.
    const boxes = (): Promise<number[][]> => options.evaluateAll((links) => links.map((link) => ((box) => [box.top, box.height].map(Math.round))(link.getBoundingClientRect())));
    const before = await boxes();

    release();
    await page.locator('[role="listbox"][data-complete]').waitFor();
    expect(await page.locator('.search-result-pending').count()).toBe(0);
    expect(await boxes()).toEqual(before);
    // Each excerpt is there, and its first mark within the lines shown.
    const excerpts = page.locator('.search-result-excerpt');
    expect(await excerpts.count()).toBe(8);
    for (const excerpt of await excerpts.all()) {
      expect((await excerpt.innerText()).length).toBeGreaterThan(20);
      const mark = excerpt.locator('mark').first();
      if ((await mark.count()) === 0) continue;
      const [outer, inner] = [await excerpt.boundingBox(), await mark.boundingBox()];
      expect(inner!.y + inner!.height).toBeLessThanOrEqual(outer!.y + outer!.height + 1);
    }
    expect(await options.evaluateAll((links) => links.map((link) => [link.querySelector('.search-result-title')!.textContent, link.querySelector('.search-result-path')!.textContent, link.getAttribute('href')]))).toEqual(rows);
    expect(await options.nth(1).getAttribute('aria-selected')).toBe('true');
    expect(await options.first().locator('mark').count()).toBeGreaterThan(0);
    await page.context().close();
  });

  it('chooses with the arrow keys, shows a clear empty state, and Esc closes and gives focus back', async () => {
    const page = await openPage(portal.browser);
    await page.goto(`${portal.site.origin}/backend/onboarding/git`);
    await waitForHydration(page);
    const button = page.locator('.navbar .search-button');
    await button.click();
    const field = page.getByRole('combobox', { name: 'Search the documentation' });
    await field.fill('passbolt');
    // The whole list (the first results may show before the rest).
    await page.locator('[role="listbox"][data-complete]').waitFor();
    expect(await page.getByRole('option').count()).toBeGreaterThan(2);
    await page.keyboard.press('ArrowDown');
    expect(await page.getByRole('option').nth(1).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await page.getByRole('option').last().getAttribute('aria-selected')).toBe('true');
    // Tab stays inside the dialog.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await field.evaluate((element) => element === document.activeElement)).toBe(true);
    await field.fill('zzqqxxyy');
    await page.getByText('No results for “zzqqxxyy”.').waitFor();
    expect(await page.getByText('Check the spelling, or try fewer or other words.').count()).toBe(1);
    expect(await page.getByRole('option').count()).toBe(0);
    // Words search leaves out, typed whole: no stray matches, and the reason.
    await field.fill('de een ');
    await page.getByText('No results for “de een”.').waitFor();
    expect(await page.getByText('Words this common are not searched for: add a word that tells the pages apart.').count()).toBe(1);
    expect(await page.getByRole('option').count()).toBe(0);
    // A single letter is left out for another reason than commonness.
    await field.fill('C#');
    await page.getByText('No results for “C#”.').waitFor();
    expect(await page.getByText('Single letters are not searched for (C# and C++ are read as C): add a longer word.').count()).toBe(1);
    // A long query quoted back stays inside the dialog.
    await field.fill('q'.repeat(160));
    await page.getByText(`No results for “${'q'.repeat(160)}”.`).waitFor();
    const status = await page.locator('.search-status p').evaluate((element) => [element.scrollWidth, element.clientWidth]);
    expect(status[0]).toBeLessThanOrEqual(status[1]!);
    await page.keyboard.press('Escape');
    expect(await page.getByRole('dialog', { name: 'Search the documentation' }).count()).toBe(0);
    await expect.poll(() => button.evaluate((element) => element === document.activeElement)).toBe(true);
    // `/` opens it too, but not while typing in a field.
    await page.keyboard.press('/');
    await field.waitFor();
    expect(await field.inputValue()).toBe('');
    // A click on the dimmed page closes it, and it stays closed.
    await page.mouse.click(5, 400);
    await page.waitForTimeout(200);
    expect(await page.getByRole('dialog', { name: 'Search the documentation' }).count()).toBe(0);
    await page.context().close();
  });

  it('keeps every letter typed at once after the first Ctrl+K, while the dialog\'s code still loads', async () => {
    const page = await openPage(portal.browser);
    // The dialog's chunk takes half a second to come, as on a slow link.
    await page.route('**/assets/chunks/SearchDialog*.js', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await route.continue();
    });
    await page.goto(`${portal.site.origin}/backend/onboarding/git`);
    await waitForHydration(page);
    await page.keyboard.press('Control+K');
    await page.keyboard.type('kubernetes', { delay: 20 });
    const field = page.getByRole('combobox', { name: 'Search the documentation' });
    await page.locator('[role="listbox"][data-complete][data-query="kubernetes"]').waitFor();
    expect(await field.inputValue()).toBe('kubernetes');
    expect(await page.locator('a[role="option"]').first().getAttribute('href')).toBe('/24urenloop/deployment/kubernetes/overview');
    // The caret after the words: the next key adds to them.
    await page.keyboard.type(' over');
    expect(await field.inputValue()).toBe('kubernetes over');
    await page.context().close();
  });

  it('replaces its stand-in with the dialog as soon as the dialog\'s code is in, and says so when that code cannot come', async () => {
    const page = await openPage(portal.browser);
    // The page's clock stands still once the page is up: nothing may wait on a timer between the code's
    // arrival and the dialog (React's lazy() held it back 300 ms after its stand-in showed, the first
    // query with it).
    await page.clock.install();
    await page.goto(`${portal.site.origin}/backend/onboarding/git`);
    await waitForHydration(page);
    await page.clock.pauseAt(Date.now() + 60_000);
    const searchFiles: string[] = [];
    page.on('request', (request) => request.url().includes('/assets/search/') && searchFiles.push(new URL(request.url()).pathname));
    await page.keyboard.press('Control+K');
    await page.getByText('Find any page, heading or API operation').waitFor();
    // The dialog asks for the index as it opens: the first query waits for none of it that it can have before.
    await expect.poll(() => searchFiles).toEqual(['/assets/search/index.json']);
    await page.context().close();

    // The dialog's file gone (the site was published again since the page loaded) or the link down: the
    // stand-in says so, and the next opening tries again.
    const offline = await openPage(portal.browser);
    let answer: 'abort' | 'continue' = 'abort';
    await offline.route('**/assets/chunks/SearchDialog*.js', (route) => (answer === 'abort' ? route.abort('internetdisconnected') : route.continue()));
    await offline.goto(`${portal.site.origin}/backend/onboarding/git`);
    await waitForHydration(offline);
    await offline.keyboard.press('Control+K');
    const dialog = offline.getByRole('dialog', { name: 'Search the documentation' });
    await expect.poll(() => dialog.innerText()).toContain('Search is not available: its code could not be loaded (are you offline, or was the site just updated?); reload the page to try again.');
    // The page itself goes on: the dialog closes, the navbar is there.
    await offline.keyboard.press('Escape');
    expect(await dialog.count()).toBe(0);
    await expect.poll(() => offline.locator('.navbar .search-button').count()).toBe(1);
    answer = 'continue';
    await offline.keyboard.press('Control+K');
    await offline.getByText('Find any page, heading or API operation').waitFor();
    await offline.context().close();
  });

  it('asks for the index\'s entry point as it opens, beside the dialog\'s code rather than after it, and once', async () => {
    const page = await openPage(portal.browser);
    // The dialog's code held back, as on a slow link: the entry point is asked for meanwhile.
    const release = await hold(page, '**/assets/chunks/SearchDialog*.js');
    await page.goto(`${portal.site.origin}/backend/onboarding/git`);
    await waitForHydration(page);
    const searchFiles: string[] = [];
    page.on('request', (request) => request.url().includes('/assets/search/') && searchFiles.push(new URL(request.url()).pathname));
    await page.keyboard.press('Control+K');
    await expect.poll(() => searchFiles).toEqual(['/assets/search/index.json']);
    release();
    const field = page.getByRole('combobox', { name: 'Search the documentation' });
    await page.getByText('Find any page, heading or API operation').waitFor();
    await field.fill('kwijting');
    await page.locator('[role="listbox"][data-complete][data-query="kwijting"]').waitFor();
    expect(await page.getByRole('option').first().innerText()).toContain('Secretaris');
    // The dialog took that answer: the entry point was asked for once, and not again at the next opening.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+K');
    await field.fill('kwijting');
    await page.locator('[role="listbox"][data-complete][data-query="kwijting"]').waitFor();
    expect(searchFiles.filter((file) => file.endsWith('/index.json'))).toEqual(['/assets/search/index.json']);
    await page.context().close();
  });

  it('keeps the letters typed before the dialog\'s field is even drawn (a busy device), and none once it is closed', async () => {
    const page = await openPage(portal.browser);
    await page.goto(`${portal.site.origin}/backend/onboarding/git`);
    await waitForHydration(page);
    // Ctrl+K and three letters in one task: React has drawn no field yet when the letters come.
    await page.evaluate(() => {
      for (const [key, ctrlKey] of [['k', true], ['k', false], ['u', false], ['b', false]] as const) {
        document.body.dispatchEvent(new KeyboardEvent('keydown', { key, ctrlKey, bubbles: true, cancelable: true }));
      }
    });
    const field = page.getByRole('combobox', { name: 'Search the documentation' });
    await expect.poll(() => field.evaluate((input) => document.activeElement === input)).toBe(true);
    await page.keyboard.type('ernetes', { delay: 20 });
    await page.locator('[role="listbox"][data-complete][data-query="kubernetes"]').waitFor();
    expect(await field.inputValue()).toBe('kubernetes');
    // Closed, the dialog keeps nothing: the page's keys are the page's, and the next dialog starts empty.
    await page.keyboard.press('Escape');
    await page.keyboard.type('xyz');
    await page.keyboard.press('Control+K');
    await expect.poll(() => field.evaluate((input) => document.activeElement === input)).toBe(true);
    expect(await field.inputValue()).toBe('');
    await page.context().close();
  });

  it('lists eight results, says there are more, and More results lists the next eight with the chosen one kept', async () => {
    const page = await openPage(portal.browser);
    await page.goto(`${portal.site.origin}/backend/onboarding/git`);
    await waitForHydration(page);
    await page.locator('.navbar .search-button').click();
    const field = page.getByRole('combobox', { name: 'Search the documentation' });
    // "quad" is on dozens of pages.
    await field.fill('quad');
    await page.locator('[role="listbox"][data-complete]').waitFor();
    const options = page.getByRole('option');
    expect(await options.count()).toBe(9);
    expect(await page.locator('a[role="option"]').count()).toBe(8);
    expect((await options.last().textContent())?.trim()).toBe('More results');
    expect(await page.getByRole('status').textContent()).toBe('The first 8 results; More results, after them, lists others');
    const firstEight = await page.locator('a[role="option"]').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    // Chosen from the keyboard: the list grows, the first new result is chosen, the field keeps focus.
    await page.keyboard.press('ArrowUp');
    expect(await options.last().getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    // The whole longer list, excerpts in: the rows stop moving before the mouse aims at one below.
    const settled = async (): Promise<number> => ((await page.locator('.search-result-pending').count()) > 0 ? -1 : page.locator('[role="listbox"][data-complete] a[role="option"]').count());
    await expect.poll(settled).toBe(16);
    const sixteen = await page.locator('a[role="option"]').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(sixteen.slice(0, 8)).toEqual(firstEight);
    expect(new Set(sixteen).size).toBe(16);
    expect(await options.nth(8).getAttribute('aria-selected')).toBe('true');
    expect(await options.nth(8).getAttribute('href')).toBe(sixteen[8]);
    expect(await field.evaluate((element) => element === document.activeElement)).toBe(true);
    // By the mouse too.
    await options.last().click();
    await expect.poll(settled).toBe(24);
    // A new query starts again at eight; one with fewer results offers no more and counts them.
    await field.fill('kwijting');
    await page.locator('[role="listbox"][data-complete][data-query="kwijting"]').waitFor();
    expect(await page.getByText('More results').count()).toBe(0);
    const count = await page.locator('a[role="option"]').count();
    expect(await page.getByRole('status').textContent()).toBe(`${count} result${count === 1 ? '' : 's'}`);
    await page.context().close();
  });

  it('shows a page\'s second result under its first, indented, with its heading in place of the title it shares', async () => {
    for (const width of [1280, 390]) {
      const page = await openPage(portal.browser, { viewport: { width, height: 800 } });
      await page.goto(`${portal.site.origin}/backend/onboarding/git`);
      await waitForHydration(page);
      await page.keyboard.press('Control+K');
      await page.getByRole('combobox', { name: 'Search the documentation' }).fill('deploy');
      await page.locator('[role="listbox"][data-complete][data-query="deploy"]').waitFor();
      const rows = page.locator('a[role="option"]');
      const sub = page.locator('.search-result-sub a[role="option"]').first();
      await sub.waitFor();
      const index = await rows.evaluateAll((links, target) => links.indexOf(target as HTMLAnchorElement), await sub.elementHandle());
      const parent = rows.nth(index - 1);
      // The row above is its page's first: same page, its title shown.
      const route = (href: string | null): string => (href ?? '').split('#')[0]!;
      expect(route(await sub.getAttribute('href'))).toBe(route(await parent.getAttribute('href')));
      const title = (await parent.locator('.search-result-title').innerText()).trim();
      // Not shown again (a box of a pixel), but the option's name still says it, with the heading.
      expect((await sub.locator('.search-result-title').boundingBox())!.width, `${width}`).toBeLessThanOrEqual(1);
      expect((await sub.locator('.search-result-title').textContent())?.trim()).toBe(title);
      const name = (await sub.evaluate((link) => link.textContent ?? '')).replace(/\s+/g, ' ');
      expect(name).toContain(title);
      expect(name).toContain((await sub.locator('.search-result-heading').textContent())!.replace(/\s+/g, ' ').trim());
      // Indented under its page, and inside the dialog.
      const [mine, theirs] = [await sub.boundingBox(), await parent.boundingBox()];
      expect(mine!.x).toBeGreaterThan(theirs!.x + 8);
      expect(mine!.x + mine!.width).toBeLessThanOrEqual(width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
      await page.context().close();
    }
  });

  it('opens from the drawer on a narrow screen', async () => {
    const page = await openPage(portal.browser, { viewport: { width: 390, height: 800 } });
    await page.goto(`${portal.site.origin}/backend/onboarding/git`);
    await waitForHydration(page);
    await page.locator('.navbar-toggle').click();
    await page.locator('.drawer').getByRole('button', { name: 'Search' }).click();
    expect(await page.locator('.drawer').count()).toBe(0);
    const field = page.getByRole('combobox', { name: 'Search the documentation' });
    await expect.poll(() => field.evaluate((element) => element === document.activeElement)).toBe(true);
    await field.fill('userLogin');
    await page.getByRole('option').first().waitFor();
    // On a phone the way out is a word, with room for a finger (not the 39 × 20 px "Esc" of a keyboard).
    const close = page.getByRole('button', { name: 'Cancel (close search)' });
    expect(await close.locator('.search-close-word').isVisible()).toBe(true);
    expect(await close.locator('.search-close-key').isVisible()).toBe(false);
    const box = (await close.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.width).toBeGreaterThanOrEqual(44);
    expect(await page.getByRole('option').first().innerText()).toContain('POST');
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    expect(scroll).toBeLessThanOrEqual(0);
    await page.getByRole('option').first().click();
    await page.waitForURL(`${portal.site.origin}/backend/api/user-authentication/user-login`);
    await page.context().close();
  });

  it.each([1280, 390])('shows an API operation with its path under its title, the query marked there, its line held until it comes (%i px)', async (width) => {
    const { page, release } = await searchWithChunksHeld(width, 'POST /api/login');
    const options = page.locator('a[role="option"]');
    const first = options.first();
    expect(await first.locator('.search-result-title').innerText()).toBe('POST\nSign in with e-mail and password');
    // Only the operation's row has a path line, held empty while its text is on its way.
    expect(await page.locator('.search-result-endpoint').count()).toBe(await page.locator('a[role="option"]:has(.api-badge)').count());
    expect(await first.locator('.search-result-endpoint.search-result-pending').count()).toBe(1);
    const boxes = (): Promise<number[][]> => options.evaluateAll((links) => links.map((link) => ((box) => [box.top, box.height].map(Math.round))(link.getBoundingClientRect())));
    const before = await boxes();

    release();
    await page.locator('[role="listbox"][data-complete]').waitFor();
    const endpoint = first.locator('.search-result-endpoint');
    expect(await endpoint.innerText()).toBe('/api/login');
    expect(await endpoint.locator('mark').allTextContents()).toEqual(['api', 'login']);
    // The rows shown first have not moved (more may follow them, found in the chunks).
    expect((await boxes()).slice(0, before.length)).toEqual(before);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(0);
    await page.context().close();
  });

  it('says in words a reader can act on when the index cannot be reached', async () => {
    const page = await openPage(portal.browser);
    await page.route('**/assets/search/**', (route) => route.abort('internetdisconnected'));
    await page.goto(`${portal.site.origin}/backend/onboarding/git`);
    await waitForHydration(page);
    await page.keyboard.press('Control+K');
    await page.getByRole('combobox', { name: 'Search the documentation' }).fill('deploy');
    await expect.poll(() => page.locator('.search-dialog').innerText()).toContain('Search is not available: the search index could not be reached (are you offline?); try again in a moment.');
    expect(await page.locator('.search-dialog').innerText()).not.toContain('Failed to fetch');
    await page.context().close();
    // An index file cut short on its way (a proxy, a deploy under way): no JavaScript parser's words either.
    const cut = await openPage(portal.browser);
    await cut.route('**/assets/search/index.json', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{"v":' }));
    await cut.goto(`${portal.site.origin}/backend/onboarding/git`);
    await waitForHydration(cut);
    await cut.keyboard.press('Control+K');
    await cut.getByRole('combobox', { name: 'Search the documentation' }).fill('deploy');
    await expect.poll(() => cut.locator('.search-dialog').innerText()).toContain('Search is not available: a file of the search index arrived damaged or cut short; reload the page to try again.');
    expect(await cut.locator('.search-dialog').innerText()).not.toMatch(/JSON|Unexpected/);
    await cut.context().close();
  });

  it('shows no search and fetches no index file for a signed-out reader', async () => {
    const page = await openPage(portal.browser, {}, { signedIn: false });
    const searchFiles: string[] = [];
    page.on('request', (request) => request.url().includes('/assets/search/') && searchFiles.push(request.url()));
    await page.goto(`${portal.site.origin}/backend/onboarding/git`);
    await page.getByRole('button', { name: /log in/i }).first().waitFor();
    await page.keyboard.press('Control+K');
    await page.keyboard.press('/');
    await page.waitForTimeout(300);
    expect(await page.locator('.search-button').count()).toBe(0);
    expect(await page.getByRole('dialog', { name: 'Search the documentation' }).count()).toBe(0);
    expect(searchFiles).toEqual([]);
    await page.context().close();
  });

  for (const theme of ['dark', 'light'] as const) {
    it(`has no serious axe-core violation in the dialog with results (${theme})`, async () => {
      const page = await openPage(portal.browser);
      await page.addInitScript((value) => localStorage.setItem('quad-docs-theme', value), theme);
      await page.goto(`${portal.site.origin}/backend/onboarding/git`);
      await waitForHydration(page);
      await page.keyboard.press('Control+K');
      await page.evaluate(AXE_SOURCE);
      // API operations' rows (`login`), and a page's second result under its first (`deploy`).
      for (const query of ['login', 'deploy']) {
        await page.getByRole('combobox', { name: 'Search the documentation' }).fill(query);
        await page.locator(`[role="listbox"][data-complete][data-query="${query}"]`).waitFor();
        const violations = await page.evaluate(async () => {
          // axe-core is a global script once evaluated; it has no type in the page's scope.
          const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }> } }).axe;
          const result = await axe.run({ include: [['.search-dialog']] }, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] } });
          return result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
        });
        expect(violations, query).toEqual([]);
      }
      await page.context().close();
    });
  }
});
