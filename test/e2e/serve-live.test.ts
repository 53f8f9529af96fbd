import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage, waitForHydration } from '../support/browser';
import { DEV_PASSWORD } from '../../cli/serve/dev-login';
import { startServe, type ServeProcess } from '../support/serve';
import { copyFixture } from '../support/site';

let site: string;
let server: ServeProcess;
let browser: Browser;

beforeAll(async () => {
  site = copyFixture('basic');
  // A long page, so the kept scroll position means something.
  const file = join(site, 'content', 'guide', 'install.md');
  writeFileSync(file, `${readFileSync(file, 'utf8')}\n${Array.from({ length: 80 }, (_, i) => `Paragraph ${i + 1} of the long install notes.\n`).join('\n')}`);
  server = await startServe(site);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('docs serve in the browser', () => {
  it('reloads the open page on save, keeping its scroll position, and shows build errors in an overlay', async () => {
    const page = await openPage(browser);
    page.setDefaultTimeout(15_000);
    await page.goto(`${server.url}/guide/install`);
    await waitForHydration(page);
    await page.evaluate(() => scrollTo(0, 900));
    await page.waitForTimeout(200);
    const file = join(site, 'content', 'guide', 'install.md');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace('Paragraph 1 of', 'Paragraph one of'));
    await page.getByText('Paragraph one of the long install notes.').waitFor();
    await waitForHydration(page);
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(900);

    writeFileSync(file, original.replace(/^title: .*$/m, 'title: [unclosed'));
    const overlay = page.getByRole('alertdialog', { name: 'Build failed' });
    await overlay.waitFor();
    expect(await overlay.locator('pre').textContent()).toMatch(/content\/guide\/install\.md:3:\d+: frontmatter is not valid YAML/);
    // The last good page is still what the server gives.
    expect(await (await fetch(`${server.url}/guide/install`)).text()).toContain('Paragraph one of');
    writeFileSync(file, original);
    await page.getByText('Paragraph 1 of the long install notes.').waitFor();
    expect(await overlay.count()).toBe(0);
    await page.context().close();
  });

  it('reloads only the tabs whose page changed; the others stay, and a link there shows the page as saved', async () => {
    const file = join(site, 'content', 'guide', 'install.md');
    const original = readFileSync(file, 'utf8');
    const edited = await openPage(browser);
    const other = await openPage(browser);
    for (const page of [edited, other]) page.setDefaultTimeout(15_000);
    await edited.goto(`${server.url}/guide/install`);
    // The other tab prefetches the install page's data (its sidebar link is in view) before the save.
    const prefetched = other.waitForRequest(/\/assets\/pages\/guide_install\.[0-9a-f]+\.js/);
    await other.goto(`${server.url}/guide/faq`);
    await Promise.all([waitForHydration(edited), waitForHydration(other), prefetched]);
    await other.evaluate(() => ((window as unknown as { kept: boolean }).kept = true));
    const kept = (): Promise<boolean> => other.evaluate(() => (window as unknown as { kept?: boolean }).kept === true);

    writeFileSync(file, original.replace('Install the backend before anything else.', 'Install the backend first of all.'));
    await edited.getByText('Install the backend first of all.').waitFor();
    await other.waitForTimeout(500);
    expect(await kept()).toBe(true);
    await other.locator('.sidebar').getByRole('link', { name: 'Install the backend' }).click();
    await other.getByText('Install the backend first of all.').waitFor();
    expect(await kept()).toBe(true);

    // A save that breaks the build shows its overlay on every tab; the fix takes it from a tab it does not reload.
    await other.goto(`${server.url}/guide/faq`);
    await waitForHydration(other);
    await other.evaluate(() => ((window as unknown as { kept: boolean }).kept = true));
    writeFileSync(file, original.replace(/^title: .*$/m, 'title: [unclosed'));
    await other.getByRole('alertdialog', { name: 'Build failed' }).waitFor();
    writeFileSync(file, original);
    await edited.getByText('Install the backend before anything else.').waitFor();
    await expect.poll(() => other.getByRole('alertdialog', { name: 'Build failed' }).count()).toBe(0);
    expect(await kept()).toBe(true);
    await edited.context().close();
    await other.context().close();
  });

  it('signs in with a development account through the server it is served from', async () => {
    const page = await openPage(browser, {}, { signedIn: false });
    page.setDefaultTimeout(15_000);
    const logins: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') logins.push(request.url());
    });
    await page.goto(`${server.url}/guide/install`);
    await waitForHydration(page);
    await page.getByLabel('E-mail').fill('member@quad.example');
    await page.getByLabel('Password').fill(DEV_PASSWORD);
    await page.getByRole('button', { name: 'Log in with your Quad account' }).click();
    await page.locator('.layout').waitFor();
    expect(await page.locator('#main h1').textContent()).toBe('Install the backend');
    expect(logins).toEqual([`${server.url}/api/login`]);
    await page.context().close();
  });
});
