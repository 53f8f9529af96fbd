import { defineConfig } from 'vitest/config';

/**
 * The portal's end-to-end files that run a second time, against the gated host (test/support/browser.ts
 * `GATED`): what a reader meets there that the static host does not give — the login and its session
 * (auth), pages, data chunks and the manifest fetched through the gate (router, hydration), the search
 * index behind it (search). The navbar, sidebar, TOC, code blocks, tabs and diagrams (chrome.test.ts) are
 * the same files on either host, drawn by the same runtime: they run once.
 */
const GATED_FILES = ['test/e2e/auth.test.ts', 'test/e2e/hydration.test.ts', 'test/e2e/router.test.ts', 'test/e2e/search.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // What a browser test waits for (a scroll, a redraw) comes later on a machine shared with another
    // test file: `expect.poll` gives up after 10 s, not 1 s (a poll that passes returns at once).
    expect: { poll: { timeout: 10_000 } },
    // Two test files at a time: most of a file's time is spent waiting (on the CLI it spawned, on
    // Chromium), and a build of a fixture keeps one core busy, seldom two. The gated pass shares the
    // two, so no core idles while one long file ends the run.
    fileParallelism: true,
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'docs', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'], globalSetup: ['test/support/global-setup.ts'] } },
      { extends: true, test: { name: 'gated', include: GATED_FILES, globalSetup: ['test/support/global-setup.ts'], env: { DOCS_E2E_GATE: '1' } } },
    ],
  },
});
