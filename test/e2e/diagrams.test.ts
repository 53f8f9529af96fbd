/**
 * Diagrams drawn right (issue 15): every mermaid diagram of the portal, in both colour modes and at a
 * phone's and a laptop's width, draws without an error and with every label inside its box — labels
 * are measured in the font they are drawn in — and into the box the build reserved for it, so nothing
 * on the page moves when it appears, and without a console error or warning. One pass over the pages
 * per width: each page is drawn in its mode, then redrawn in the other.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { collectProblems, openPage, usePortal, waitForHydration } from '../support/browser';

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

  /**
   * The labels of the page's diagrams that overrun their boxes, the diagrams that failed to draw, and
   * those not drawn in the page's colour mode. Labels are measured in the font they are drawn in.
   */
  async function labelProblems(page: Page, route: string): Promise<{ problems: string[]; checked: number; theme: string | undefined }> {
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
    const problems = [...found.errors.map((error) => `${route}: ${error}`), ...found.overflowing.map((line) => `${route} (${found.theme}): ${line}`)];
    const expected = found.theme === 'light' ? 'default' : 'dark';
    if (found.drawnIn.some((mode) => mode !== expected)) problems.push(`${route}: drawn in ${found.drawnIn.join(', ')} on a ${found.theme} page`);
    return { problems, checked: found.checked, theme: found.theme };
  }

  /** Where each diagram and the element after it are, and how large each drawing is against mermaid's own size. */
  async function layoutOf(page: Page) {
    return page.evaluate(() =>
      [...document.querySelectorAll('[data-mermaid]')].map((frame) => {
        const block = frame.closest('.mermaid')!;
        const rect = frame.getBoundingClientRect();
        const svg = frame.querySelector('svg');
        const view = svg?.viewBox.baseVal;
        // Mermaid alone draws a diagram at its own size, narrowed to the column when wider than it; the
        // build narrows it no further than three quarters (a wider one scrolls in its frame).
        const column = block.clientWidth - parseFloat(getComputedStyle(block).paddingLeft) - parseFloat(getComputedStyle(block).paddingRight);
        const scale = view && view.width > 0 ? Math.min(rect.width / view.width, rect.height / view.height) / Math.min(1, Math.max(0.75, column / view.width)) : undefined;
        return {
          reserved: frame.hasAttribute('style'),
          top: rect.top + scrollY,
          height: rect.height,
          width: rect.width,
          next: (block.nextElementSibling?.getBoundingClientRect().top ?? NaN) + scrollY,
          page: document.documentElement.scrollHeight,
          scale,
        };
      }),
    );
  }

  for (const width of [390, 1280]) {
    it(`draws every diagram in both colour modes with each label inside its box, into the box reserved in the built page: nothing moves when it is drawn, or redrawn in the other mode (${width} px)`, async () => {
      const page = await openPage(portal.browser, { viewport: { width, height: 900 } });
      // Console errors and warnings, uncaught exceptions: mermaid reports a bad diagram there too.
      const complaints = collectProblems(page);
      const moved: string[] = [];
      const scales: number[] = [];
      const drawing: string[] = [];
      const themes = new Set<string | undefined>();
      let labels = 0;
      const checkLabels = async (route: string): Promise<void> => {
        const { problems, checked, theme } = await labelProblems(page, route);
        drawing.push(...problems);
        labels += checked;
        themes.add(theme);
      };
      for (const route of diagramRoutes(portal.site.dist)) {
        // The diagram chunk is held back until the page, as built, has been measured.
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        await page.route(/\/assets\/chunks\/mermaid\.[^/]+\.js$/, async (request) => {
          await held;
          await request.continue();
        });
        await page.goto(portal.site.origin + route);
        await waitForHydration(page);
        const before = await layoutOf(page);
        // Every height the page is painted at while its diagrams are drawn (mermaid lays each out in a
        // box of its own first: one at the end of <body> made the page taller for a moment).
        await page.evaluate(() => {
          const heights = new Set<number>();
          Object.assign(window, { paintedHeights: heights });
          const sample = (): void => {
            heights.add(document.documentElement.scrollHeight);
            requestAnimationFrame(sample);
          };
          sample();
        });
        release();
        await page.waitForFunction(() => [...document.querySelectorAll('[data-mermaid]')].every((element) => element.hasAttribute('data-mermaid-theme') || element.hasAttribute('data-mermaid-error')), undefined, { timeout: 20_000 });
        await checkLabels(route);
        const drawn = await layoutOf(page);
        await page.evaluate(() => document.documentElement.setAttribute('data-theme', document.documentElement.dataset.theme === 'light' ? 'dark' : 'light'));
        await page.waitForFunction(() => [...document.querySelectorAll('[data-mermaid]')].every((element) => element.getAttribute('data-mermaid-theme') === (document.documentElement.dataset.theme === 'light' ? 'default' : 'dark')), undefined, { timeout: 20_000 });
        await checkLabels(route);
        const redrawn = await layoutOf(page);
        const painted = await page.evaluate(() => [...(window as unknown as { paintedHeights: Set<number> }).paintedHeights]);
        const page0 = before[0]?.page ?? NaN;
        for (const height of painted) if (Math.abs(height - page0) > 0.5) moved.push(`${route}: painted at a page height of ${height} (built ${page0})`);
        await page.unroute(/\/assets\/chunks\/mermaid\.[^/]+\.js$/);
        before.forEach((built, i) => {
          if (!built.reserved) moved.push(`${route} #${i}: no box reserved`);
          for (const [when, after] of [['drawn', drawn[i]!], ['redrawn', redrawn[i]!]] as const) {
            for (const key of ['top', 'height', 'width', 'next', 'page'] as const) {
              if (Math.abs(after[key] - built[key]) > 0.5) moved.push(`${route} #${i} ${when}: ${key} ${built[key].toFixed(1)} → ${after[key].toFixed(1)}`);
            }
          }
          scales.push(drawn[i]!.scale ?? NaN);
        });
      }
      await page.context().close();
      expect(drawing).toEqual([]);
      expect(complaints).toEqual([]);
      // Both modes were looked at, and the check looked at real labels, not at nothing.
      expect([...themes].sort()).toEqual(['dark', 'light']);
      expect(labels).toBeGreaterThan(200);
      expect(moved).toEqual([]);
      expect(scales.length).toBeGreaterThanOrEqual(20);
      // The estimate is close to mermaid's drawing: no diagram is drawn at less than 70 % or more than
      // 140 % of the size mermaid alone would give it.
      const off = scales.filter((scale) => !(scale >= 0.7 && scale <= 1.4));
      expect(off).toEqual([]);
    });
  }
});
