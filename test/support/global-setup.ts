/**
 * Compiles the CLI once before any test spawns it, so parallel builds never race to compile it. And
 * gives the run a temporary folder of its own: the tests copy sites and build them in temporary
 * folders (some 4,000 a run, gigabytes), which the run removes as it ends instead of leaving them all
 * in the system's. The test files' processes and the CLIs they start find it as `os.tmpdir()`.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureCliBuilt } from '../../bin/ensure-built.mjs';

export default async function setup(): Promise<() => void> {
  // Each project of the run (vitest.config.ts) names this setup: the first one sets the run up.
  if (process.env.DOCS_TEST_RUN !== undefined) return () => undefined;
  await ensureCliBuilt();
  const given = process.env.TMPDIR;
  const folder = mkdtempSync(join(tmpdir(), 'docs-tests-'));
  // Open to every user, as the system's is: a test builds as `nobody` (test/build/adversarial.test.ts).
  chmodSync(folder, 0o755);
  process.env.TMPDIR = folder;
  process.env.DOCS_TEST_RUN = folder;
  return () => {
    delete process.env.DOCS_TEST_RUN;
    if (given === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = given;
    rmSync(folder, { recursive: true, force: true });
  };
}
