/** Helpers for build tests: copy a fixture tree to a temporary folder and run the real `docs` CLI on it. */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = join(REPO, 'test', 'fixtures');

/**
 * Copies `test/fixtures/<name>` (and the shared fixture config beside it) into a new temporary folder
 * and returns the copy's path, so a test may edit or `git init` it freely.
 */
export function copyFixture(name: string): string {
  const parent = mkdtempSync(join(tmpdir(), 'docs-test-'));
  cpSync(join(FIXTURES, '_shared'), join(parent, '_shared'), { recursive: true });
  cpSync(join(FIXTURES, name), join(parent, name), { recursive: true });
  return join(parent, name);
}

/** The outcome of one CLI run. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `docs <args>` in `cwd` with the real binary. */
export function runDocs(args: string[], options: { cwd?: string; env?: Record<string, string>; timeout?: number } = {}): CliRun {
  const result = spawnSync(process.execPath, [join(REPO, 'bin', 'docs.mjs'), ...args], {
    cwd: options.cwd ?? REPO,
    encoding: 'utf8',
    env: { ...process.env, ...options.env },
    // A build that hangs is killed: its exit code is then null, and the test says so. (spawnSync holds
    // the test's thread, so vitest's own timeout cannot end it: without this a hang held the suite.)
    timeout: options.timeout ?? 180_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every file below `dir` with its bytes, for byte-for-byte comparisons. */
export function snapshotTree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(dir, path), readFileSync(path).toString('base64'));
    }
  };
  walk(dir);
  return files;
}

/** The built HTML of `route` in `dist`. */
export function readRoute(dist: string, route: string): string {
  return readFileSync(join(dist, route === '/' ? 'index.html' : `${route.slice(1)}/index.html`), 'utf8');
}
