/**
 * A build whose cache cannot be written (the disk under node_modules/.cache is full) is a whole build
 * all the same: exit 0, the output of a build without the cache, and a note that says so — not a crash
 * of the thread LMDB failed in, nor a build that never ends. The full disk is a file-size limit
 * (`ulimit -f`, SIGXFSZ ignored) below what the store grows to: every write past it fails as on a full
 * disk (EFBIG instead of ENOSPC), with no mount needed.
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, REPO, runDocs, snapshotTree, type CliRun } from '../support/site';

/** Limit, in KiB, on any file the build writes: above every output file of the fixture, below its store. */
const LIMIT_KIB = 40;

function buildWithFullDisk(site: string, out: string): CliRun {
  const script = `trap '' XFSZ; ulimit -f ${LIMIT_KIB}; exec "$0" "$@"`;
  const result = spawnSync('bash', ['-c', script, process.execPath, join(REPO, 'bin', 'docs.mjs'), 'build', '--root', site, '--out', out], { encoding: 'utf8', timeout: 120_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('a build whose cache cannot be written', () => {
  it('builds whole, exits 0 and says so; the next build with room fills the cache', () => {
    const site = copyFixture('basic');
    // The reference output; it also compiles the CLI and the runtime bundle, which the limit would stop.
    const reference = join(site, 'reference');
    expect(runDocs(['build', '--root', site, '--out', reference, '--no-cache']).code).toBe(0);
    const expected = snapshotTree(reference);
    const out = join(site, 'dist');

    const full = buildWithFullDisk(site, out);
    expect(full.code, full.stderr).toBe(0);
    expect(full.stderr).toContain(`note: the build cache in ${join(site, 'node_modules/.cache/docs')} could not be written`);
    expect(full.stderr).toContain('This build is complete');
    expect(full.stderr).not.toContain('internal error');
    expect(full.stdout).toContain('Built 6 pages');
    expect(snapshotTree(out)).toEqual(expected);
    // The store did fill up: its file stopped at the limit.
    expect(statSync(join(site, 'node_modules/.cache/docs/store.lmdb')).size).toBeLessThanOrEqual(LIMIT_KIB * 1024);

    // Again over the full store: the same.
    const again = buildWithFullDisk(site, out);
    expect(again.code, again.stderr).toBe(0);
    expect(snapshotTree(out)).toEqual(expected);

    // With room, a build fills the cache, and the one after it stops at once.
    const roomy = runDocs(['build', '--root', site, '--out', out]);
    expect(roomy.code, roomy.stderr).toBe(0);
    expect(roomy.stderr).not.toContain('could not be written');
    expect(snapshotTree(out)).toEqual(expected);
    const after = runDocs(['build', '--root', site, '--out', out, '--json']);
    expect(JSON.parse(after.stdout.trim().split('\n').pop()!)).toMatchObject({ ok: true, unchanged: true });
  });
});
