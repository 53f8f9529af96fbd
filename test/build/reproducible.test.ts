import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, REPO, runDocs, snapshotTree } from '../support/site';

/** Runs `docs <args>` in `cwd` without waiting for it: its exit code and stderr once it ends. */
function startDocs(args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(REPO, 'bin', 'docs.mjs'), ...args], { cwd, env: { ...process.env, ...env } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('reproducible artefacts', () => {
  it('makes the runtime bundle once for builds started together on a fresh install, each with the same assets', async () => {
    // The bundle is the package's, made by the first build after an install or an upgrade: here in a
    // folder of the test's own, so that none exists yet. Two builds start at once and each makes it.
    const site = copyFixture('basic');
    const out = mkdtempSync(join(tmpdir(), 'docs-bundle-race-'));
    const env = { DOCS_TEST_BUNDLE_DIR: join(out, 'cache', 'bundle') };
    const runs = await Promise.all(['a', 'b'].map((name) => startDocs(['build', '--no-cache', '--out', join(out, name)], site, env)));
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const assets = (name: string): Map<string, string> => new Map([...snapshotTree(join(out, name))].filter(([file]) => file.startsWith('assets/') && !file.startsWith('assets/search/')));
    expect(assets('a').size).toBeGreaterThan(20);
    expect(assets('b')).toEqual(assets('a'));
    // One bundle in place, complete, and no builder's folder left behind.
    const kept = readdirSync(env.DOCS_TEST_BUNDLE_DIR);
    expect(kept).toHaveLength(1);
    expect(existsSync(join(env.DOCS_TEST_BUNDLE_DIR, kept[0]!, 'urls.json'))).toBe(true);
  }, 120_000);

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

  it('leaves no half-written archive behind when Ctrl-C stops it, and ends as interrupted', async () => {
    const site = copyFixture('basic');
    // 40 MB that gzip cannot shrink: the archive takes seconds to write.
    writeFileSync(join(site, 'content/guide/img/dump.bin'), randomBytes(40 * 1024 * 1024));
    writeFileSync(join(site, 'content/guide/faq.md'), `${readFileSync(join(site, 'content/guide/faq.md'), 'utf8')}\n[The raw dump](./img/dump.bin)\n`);
    const folder = mkdtempSync(join(tmpdir(), 'docs-archive-stopped-'));
    const child = spawn(process.execPath, [join(REPO, 'bin', 'docs.mjs'), 'build', '--no-cache', '--out', join(folder, 'out'), '--archive', join(folder, 'site.tar.gz')], { cwd: site });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const ended = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    const aside = (): string[] => readdirSync(folder).filter((name) => /^\.site\.tar\.gz\.\d+\.tmp$/.test(name));
    for (let waited = 0; aside().length === 0; waited += 20) {
      if (waited > 60_000 || child.exitCode !== null) throw new Error(`the archive was never being written; docs printed:\n${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    child.kill('SIGINT');
    expect(await ended, stderr).toBe('SIGINT');
    expect(readdirSync(folder).sort()).toEqual(['out']);
  }, 120_000);

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
    // One SHA256SUMS for the folder: each archive has its line.
    expect(readFileSync(join(out, 'SHA256SUMS'), 'utf8')).toBe(`${sha}  a.tar.gz\n${sha}  b.tar.gz\n`);
    expect(spawnSync('sha256sum', ['--check', 'SHA256SUMS'], { cwd: out, encoding: 'utf8' }).stdout).toBe('a.tar.gz: OK\nb.tar.gz: OK\n');
    const listed = spawnSync('tar', ['-tzf', join(out, 'a.tar.gz')], { encoding: 'utf8' }).stdout.split('\n').filter((line) => line && !line.endsWith('/'));
    expect(listed.sort()).toEqual([...snapshotTree(join(out, 'a')).keys()].sort());
  });

  it("keeps the other lines of a SHA256SUMS already in the archive's folder, and refuses to replace a file of that name that is not one", () => {
    const site = copyFixture('basic');
    const releases = mkdtempSync(join(tmpdir(), 'docs-releases-'));
    const other = `${'ab'.repeat(32)}  handbook-2025.tar.gz\n${'cd'.repeat(32)} *timing-server.deb\n`;
    writeFileSync(join(releases, 'SHA256SUMS'), other);
    for (const round of [1, 2]) {
      if (round === 2) writeFileSync(join(site, 'content', 'guide', 'late.md'), '# Late\n\nAdded after the first release.\n');
      const run = runDocs(['build', '--archive', join(releases, 'portal.tar.gz')], { cwd: site });
      expect(run.code, run.stderr).toBe(0);
      const sha = createHash('sha256').update(readFileSync(join(releases, 'portal.tar.gz'))).digest('hex');
      // The release's line is replaced on the second build, not added twice; the others stay as they were.
      expect(readFileSync(join(releases, 'SHA256SUMS'), 'utf8')).toBe(`${other}${sha}  portal.tar.gz\n`);
    }
    expect(readdirSync(releases).sort()).toEqual(['SHA256SUMS', 'portal.tar.gz']);
    // Someone's notes under that name: refused before the build, the file and the output untouched.
    const notes = 'Release checklist\n1. tag\n2. upload\n';
    writeFileSync(join(releases, 'SHA256SUMS'), notes);
    const output = snapshotTree(join(site, 'dist'));
    writeFileSync(join(site, 'content', 'guide', 'later.md'), '# Later\n\nNot published: the archive is refused.\n');
    const refused = runDocs(['build', '--archive', join(releases, 'portal.tar.gz')], { cwd: site });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${join(releases, 'SHA256SUMS')}:1: is beside the archive but is not a list of SHA-256 checksums`);
    expect(refused.stderr).toContain('fix: move that file away, or write the archive into another folder');
    expect(readFileSync(join(releases, 'SHA256SUMS'), 'utf8')).toBe(notes);
    expect(snapshotTree(join(site, 'dist'))).toEqual(output);
    // A file of the archive's name that is no archive (a typo'd name, a file kept there): refused too.
    rmSync(join(releases, 'SHA256SUMS'));
    writeFileSync(join(releases, 'keep.tar.gz'), 'The signed copy of the 2025 handbook: keep.\n');
    const kept = runDocs(['build', '--archive', join(releases, 'keep.tar.gz')], { cwd: site });
    expect(kept.code).toBe(2);
    expect(kept.stderr).toContain(`${join(releases, 'keep.tar.gz')}: cannot be the archive: a file that is no gzip archive has that name, and a build replaces only an archive`);
    expect(readFileSync(join(releases, 'keep.tar.gz'), 'utf8')).toBe('The signed copy of the 2025 handbook: keep.\n');
    expect(snapshotTree(join(site, 'dist'))).toEqual(output);
  });

  it('refuses an archive inside the output or the content folder before the build, the output as it was', () => {
    const site = copyFixture('basic');
    expect(runDocs(['build'], { cwd: site }).code).toBe(0);
    const output = snapshotTree(join(site, 'dist'));
    writeFileSync(join(site, 'content', 'guide', 'faq.md'), `${readFileSync(join(site, 'content', 'guide', 'faq.md'), 'utf8')}\nChanged text XYZZY.\n`);
    for (const [archive, place] of [[join(site, 'dist', 'portal.tar.gz'), 'inside the output folder'], [join(site, 'content', 'portal.tar.gz'), 'inside the content folder']] as const) {
      const refused = runDocs(['build', '--archive', archive], { cwd: site });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(`cannot be the archive: ${archive} is ${place}`);
      expect(refused.stderr).toContain('Build failed: 1 error; the previous output was left untouched.');
      expect(snapshotTree(join(site, 'dist'))).toEqual(output);
      expect(existsSync(archive)).toBe(false);
    }
  });

  it('keeps stdout for the --json report alone: what the config prints goes to stderr, and a refused option is a JSON failure too', () => {
    const site = copyFixture('basic');
    writeFileSync(join(site, 'site.config.ts'), "import { fixtureConfig } from '../_shared/config';\n\nconsole.log('config: loading');\nprocess.stdout.write('config: written\\n');\nexport default fixtureConfig();\n");
    const run = runDocs(['build', '--json'], { cwd: site });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, exitCode: 0, pages: 6 });
    expect(run.stderr).toContain('config: loading');
    expect(run.stderr).toContain('config: written');
    const bogus = runDocs(['build', '--json', '--bogus'], { cwd: site });
    expect(bogus.code).toBe(2);
    expect(JSON.parse(bogus.stdout)).toMatchObject({ ok: false, exitCode: 2, errors: [{ message: "error: unknown option '--bogus'" }] });
  });

  it('prints a machine-readable report with --json, for success and failure', () => {
    const site = copyFixture('basic');
    const ok = runDocs(['build', '--json'], { cwd: site });
    expect(ok.code).toBe(0);
    expect(ok.stderr).toBe('');
    expect(JSON.parse(ok.stdout)).toMatchObject({ ok: true, exitCode: 0, pages: 6, warnings: [], errors: [] });
    // A broken link (an error) and a missing anchor (a warning): the failure reports both, in the fields of a success.
    writeFileSync(join(site, 'content', 'guide', 'zebra.md'), '---\ntitle: Zebra\n---\n\nSee [the void](/no/such/page).\n\nAnd [a lost section](#nope).\n');
    const failed = runDocs(['build', '--json'], { cwd: site });
    expect(failed.code).toBe(1);
    const report = JSON.parse(failed.stdout) as { ok: boolean; exitCode: number; errors: { file: string; line: number; message: string }[]; warnings: { file: string; line: number }[]; seconds: number };
    expect(report).toMatchObject({ ok: false, exitCode: 1, outDir: null, pages: null, cachedPages: null, archive: null });
    expect(Object.keys(report)).toEqual(expect.arrayContaining(Object.keys(JSON.parse(ok.stdout) as object).filter((key) => !['searchSeconds', 'unchanged'].includes(key))));
    expect(report.seconds).toBeGreaterThan(0);
    expect(report.errors[0]).toMatchObject({ file: 'content/guide/zebra.md', line: 5 });
    expect(report.errors[0]!.message).toContain('/no/such/page');
    expect(report.warnings).toEqual([expect.objectContaining({ file: 'content/guide/zebra.md', line: 7 })]);
    // As text: the warning too, before the error.
    const text = runDocs(['build'], { cwd: site });
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/warning content\/guide\/zebra\.md:7:\d+: [^\n]*#nope[\s\S]*\nerror content\/guide\/zebra\.md:5:\d+: [^\n]*\/no\/such\/page/);
  });
});
