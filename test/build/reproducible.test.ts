import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, runDocs, snapshotTree } from '../support/site';

describe('reproducible artefacts', () => {
  it('builds byte-identical output twice, with and without the cache', () => {
    const site = copyFixture('basic');
    const out = mkdtempSync(join(tmpdir(), 'docs-repro-'));
    for (const [name, args] of [
      ['first', ['--no-cache']],
      ['second', ['--no-cache']],
      ['cached', []],
    ] as const) {
      const run = runDocs(['build', '--out', join(out, name), ...args], { cwd: site });
      expect(run.code, run.stderr).toBe(0);
    }
    const first = snapshotTree(join(out, 'first'));
    expect(first.size).toBeGreaterThan(10);
    expect(snapshotTree(join(out, 'second'))).toEqual(first);
    expect(snapshotTree(join(out, 'cached'))).toEqual(first);
  });

  it('writes the same archive for the same output, a matching SHA256SUMS, and a tar every tool reads', () => {
    const site = copyFixture('basic');
    const out = mkdtempSync(join(tmpdir(), 'docs-archive-'));
    for (const name of ['a', 'b']) {
      const run = runDocs(['build', '--no-cache', '--out', join(out, name), '--archive', join(out, name, '..', `${name}.tar.gz`)], { cwd: site });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`Archive .*${name}\\.tar\\.gz \\(sha256 [0-9a-f]{64}\\), SHA256SUMS beside it`));
    }
    const a = readFileSync(join(out, 'a.tar.gz'));
    expect(readFileSync(join(out, 'b.tar.gz')).equals(a)).toBe(true);
    const sha = createHash('sha256').update(a).digest('hex');
    expect(readFileSync(join(out, 'SHA256SUMS'), 'utf8')).toBe(`${sha}  b.tar.gz\n`);
    expect(spawnSync('sha256sum', ['--check', 'SHA256SUMS'], { cwd: out, encoding: 'utf8' }).stdout).toBe('b.tar.gz: OK\n');
    const listed = spawnSync('tar', ['-tzf', join(out, 'a.tar.gz')], { encoding: 'utf8' }).stdout.split('\n').filter((line) => line && !line.endsWith('/'));
    expect(listed.sort()).toEqual([...snapshotTree(join(out, 'a')).keys()].sort());
  });

  it('prints a machine-readable report with --json, for success and failure', () => {
    const site = copyFixture('basic');
    const ok = runDocs(['build', '--json'], { cwd: site });
    expect(ok.code).toBe(0);
    expect(ok.stderr).toBe('');
    expect(JSON.parse(ok.stdout)).toMatchObject({ ok: true, exitCode: 0, pages: 6, warnings: [], errors: [] });
    writeFileSync(join(site, 'content', 'guide', 'zebra.md'), '---\ntitle: Zebra\n---\n\nSee [the void](/no/such/page).\n');
    const failed = runDocs(['build', '--json'], { cwd: site });
    expect(failed.code).toBe(1);
    const report = JSON.parse(failed.stdout) as { ok: boolean; exitCode: number; errors: { file: string; line: number; message: string }[] };
    expect(report).toMatchObject({ ok: false, exitCode: 1 });
    expect(report.errors[0]).toMatchObject({ file: 'content/guide/zebra.md', line: 5 });
    expect(report.errors[0]!.message).toContain('/no/such/page');
  });
});
