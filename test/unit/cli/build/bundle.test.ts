/**
 * The runtime bundle is written into the package's cache by esbuild, a Go program: when it cannot
 * write (a full disk, a file-size limit), the build must say so as it says it for its own writes —
 * the folder, the cause, the fix — not as "a bug in docs".
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleWriteError } from '../../../../cli/build/bundle';
import { DocsError } from '../../../../cli/util/errors';
import { REPO } from '../../../support/site';

/** esbuild's rejection when it bundles `source` into `outdir` with at most `limitKib` KiB per file. */
function esbuildFailure(dir: string, source: string, limitKib: number): unknown {
  writeFileSync(join(dir, 'in.js'), source);
  const script = `import('esbuild').then(async ({ build }) => { try { await build({ entryPoints: [${JSON.stringify(join(dir, 'in.js'))}], outdir: ${JSON.stringify(join(dir, 'out'))}, bundle: true, logLevel: 'silent' }); console.log('{}'); } catch (error) { console.log(JSON.stringify({ message: error.message, errors: error.errors })); } });`;
  // SIGXFSZ ignored, as a shell's `ulimit -f` leaves it: a write past the limit fails with EFBIG.
  const run = spawnSync('bash', ['-c', `trap '' XFSZ; ulimit -f ${limitKib}; exec "$0" -e "$1"`, process.execPath, script], { cwd: REPO, encoding: 'utf8' });
  return JSON.parse(run.stdout.trim().split('\n').pop()!) as unknown;
}

describe('cli/build/bundle', () => {
  it('says that esbuild could not write the bundle, where, why and what to do', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-bundle-'));
    try {
      const failure = esbuildFailure(dir, `export const text = ${JSON.stringify('a'.repeat(20_000))};\n`, 4);
      const error = bundleWriteError(failure, join(dir, 'out'));
      expect(error).toBeInstanceOf(DocsError);
      expect((error as DocsError).diagnostics).toEqual([
        { file: join(dir, 'out'), message: "cannot write the docs package's bundle cache: the file would pass the size this process may write (a file-size limit, `ulimit -f`) (EFBIG)", fix: 'raise the file-size limit (ulimit -f) and build again' },
      ]);
      // A full disk, in esbuild's words.
      const full = bundleWriteError({ errors: [{ text: 'Failed to write to output file: write /pkg/node_modules/.cache/docs/bundle/k/assets/app.js: no space left on device' }] }, '/pkg/bundle');
      expect((full as DocsError).diagnostics[0]).toMatchObject({ file: '/pkg/bundle', message: expect.stringContaining('the disk is full (ENOSPC)'), fix: 'free some disk space and build again' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves any other esbuild failure as it is (a bug in the runtime is not the disk)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-bundle-'));
    try {
      const failure = esbuildFailure(dir, 'export const = ;\n', 1024);
      expect((failure as { errors: unknown[] }).errors.length).toBeGreaterThan(0);
      expect(bundleWriteError(failure, join(dir, 'out'))).toBe(failure);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
