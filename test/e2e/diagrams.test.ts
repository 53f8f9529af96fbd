/**
 * Diagrams drawn right (issue 15): every mermaid diagram of the portal, in both colour modes, draws
 * without an error and with every label inside its box — labels are measured in the font they are
 * drawn in.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPage, usePortal, waitForHydration } from '../support/browser';

const portal = usePortal();

/** The routes of the built pages that hold a diagram, read off the output. */
function diagramRoutes(dist: string): string[] {
  const routes: string[] = [];
  const visit = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name === 'index.html' && readFileSync(path, 'utf8').includes('data-mermaid')) {
        routes.push(`/${relative(dist, folder).split(sep).join('/')}`.replace(/\/$/, '') || '/');
      }
    }
  };
  visit(dist);
  return routes.sort();
}

describe('mermaid diagrams', () => {
  it('finds the portal diagrams in the output', () => {
    const routes = diagramRoutes(portal.site.dist);
    expect(routes).toContain('/24urenloop/deployment/overview');
    expect(routes.length).toBeGreaterThanOrEqual(20);
  });

  for (const theme of ['dark', 'light'] as const) {
    it(`draws every diagram with each label inside its box (${theme})`, async () => {
      const page = await openPage(portal.browser, { viewport: { width: 1280, height: 900 } });
      await page.addInitScript((value) => localStorage.setItem('quad-docs-theme', value), theme);
      const problems: string[] = [];
      let labels = 0;
      for (const route of diagramRoutes(portal.site.dist)) {
        await page.goto(portal.site.origin + route);
        await waitForHydration(page);
        await page.waitForFunction(() => [...document.querySelectorAll('[data-mermaid]')].every((element) => element.hasAttribute('data-mermaid-theme') || element.hasAttribute('data-mermaid-error')), undefined, { timeout: 20_000 });
        const found = await page.evaluate(() => {
          const overflowing: string[] = [];
          const errors: string[] = [];
          let checked = 0;
          const width = (node: Node): number => {
            const range = document.createRange();
            range.selectNodeContents(node);
            return range.getBoundingClientRect().width;
          };
          for (const diagram of document.querySelectorAll('[data-mermaid]')) {
            const error = diagram.getAttribute('data-mermaid-error');
            if (error) errors.push(error);
            // Flowchart, state and class labels: HTML inside a foreignObject as wide as mermaid measured.
            for (const box of diagram.querySelectorAll('foreignObject')) {
              const text = box.textContent?.trim();
              if (!text) continue;
              checked++;
              const room = box.getBoundingClientRect().width;
              const used = width(box.firstElementChild ?? box);
              if (used > room + 1) overflowing.push(`"${text}" is ${Math.round(used - room)} px wider than its box`);
            }
            // Sequence diagrams: each participant's name in its rectangle.
            for (const rect of diagram.querySelectorAll('rect.actor')) {
              const label = rect.parentElement?.querySelector('text.actor');
              if (!label?.textContent?.trim()) continue;
              checked++;
              const room = rect.getBoundingClientRect().width;
              const used = width(label);
              if (used > room + 1) overflowing.push(`"${label.textContent.trim()}" is ${Math.round(used - room)} px wider than its box`);
            }
          }
          const theme = document.documentElement.dataset.theme;
          const drawnIn = [...document.querySelectorAll('[data-mermaid]')].map((diagram) => diagram.getAttribute('data-mermaid-theme'));
          return { overflowing, errors, checked, theme, drawnIn };
        });
        labels += found.checked;
        problems.push(...found.errors.map((error) => `${route}: ${error}`), ...found.overflowing.map((line) => `${route}: ${line}`));
        const expected = theme === 'light' ? 'default' : 'dark';
        if (found.drawnIn.some((mode) => mode !== expected)) problems.push(`${route}: drawn in ${found.drawnIn.join(', ')} on a ${found.theme} page`);
      }
      await page.context().close();
      expect(problems).toEqual([]);
      // The check looked at real labels, not at nothing.
      expect(labels).toBeGreaterThan(100);
    });
  }
});
