/**
 * Where the output goes (cli/build/publish.ts): a mount point (a Docker volume, a tmpfs), a folder under
 * one the user may not write (`/srv/www/docs` under a root-owned `/srv/www`), an earlier output another
 * user left (a build once run with `sudo`), an output moved aside by a build killed before it moved the
 * new one in. Each builds, or says what to do, and never ends in exit 70. As root, the builds that need
 * permissions to hold run as `nobody`.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stagingPath } from '../../cli/build/publish';
import { copyFixture, readRoute, REPO, runDocs, snapshotTree, type CliRun } from '../support/site';

const asRoot = process.getuid?.() === 0;
const NOBODY = 65534;
/** Mounts made by the tests, unmounted at the end (also when a test fails). */
const mounts: string[] = [];
afterAll(() => {
  for (const mount of mounts.reverse()) spawnSync('umount', [mount]);
});

/** A copy of the basic fixture in a folder of its own, readable (and, as root, owned) by `nobody`. */
function site(): { parent: string; root: string } {
  const root = copyFixture('basic');
  const parent = dirname(root);
  chmodSync(parent, 0o755);
  if (asRoot) spawnSync('chown', ['-R', `${NOBODY}:${NOBODY}`, parent]);
  return { parent, root };
}

/** `nobody` may not reach a Node kept below /root (npx's cache): then the system's Node runs the CLI. */
function nodeForNobody(): string {
  if (!asRoot) return process.execPath;
  const reachable = spawnSync(process.execPath, ['--version'], { uid: NOBODY, gid: NOBODY });
  return reachable.status === 0 ? process.execPath : (['/usr/local/bin/node', '/usr/bin/node'].find(existsSync) ?? process.execPath);
}

/** Runs `docs build` as `nobody` when this is root, as this user otherwise. */
function buildAsUser(root: string, out: string, ...more: string[]): CliRun {
  const result = spawnSync(nodeForNobody(), [join(REPO, 'bin', 'docs.mjs'), 'build', '--root', root, '--out', out, ...more], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, HOME: root },
    timeout: 180_000,
    ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function expectBuilt(run: CliRun): void {
  expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
  expect(run.code, run.stderr).toBe(0);
}

/** Mounts a tmpfs at `dir`; false where this process may not mount. */
function mountTmpfs(dir: string): boolean {
  mkdirSync(dir, { recursive: true });
  if (!asRoot || spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', dir]).status !== 0) return false;
  mounts.push(dir);
  return true;
}

describe('the output folder', () => {
  beforeAll(() => {
    // The package's runtime bundle, made once by this user: `nobody` may not write below node_modules.
    expectBuilt(runDocs(['build', '--root', site().root, '--no-cache']));
  });

  it('stages inside a mount point, which cannot be renamed, and builds into it, first, in place and from nothing', () => {
    // /proc is a mount point wherever Linux runs (its own filesystem), and `/` is never moved aside.
    if (process.platform === 'linux') expect(dirname(stagingPath('/proc'))).toBe('/proc');
    expect(dirname(stagingPath('/'))).toBe('/');
    const { parent, root } = site();
    expect(dirname(stagingPath(join(parent, 'dist')))).toBe(parent);
    const out = join(parent, 'volume');
    const mounted = mountTmpfs(out);
    // Only root mounts (CI runs as root): elsewhere the unit checks above are the test.
    if (!mounted) return;
    expect(dirname(stagingPath(out))).toBe(out);
    const first = runDocs(['build', '--root', root, '--out', out]);
    expectBuilt(first);
    expect(readRoute(out, '/guide/install')).toContain('<h1');
    const clean = join(parent, 'clean');
    expectBuilt(runDocs(['build', '--root', root, '--out', clean, '--no-cache']));
    expect(snapshotTree(out)).toEqual(snapshotTree(clean));
    // In place after an edit, and from nothing (`--no-cache` replaces the whole output): the same as a clean build, no staging folder left.
    writeFileSync(join(root, 'content/guide/install.md'), '---\ntitle: Install\n---\n\n# Install\n\nThe volume keeps this page.\n');
    expectBuilt(runDocs(['build', '--root', root, '--out', out]));
    expect(readRoute(out, '/guide/install')).toContain('The volume keeps this page.');
    expectBuilt(runDocs(['build', '--root', root, '--out', out, '--no-cache']));
    expectBuilt(runDocs(['build', '--root', root, '--out', clean, '--no-cache']));
    expect(snapshotTree(out)).toEqual(snapshotTree(clean));
    expect(readdirSync(out).filter((name) => name.includes('.staging-'))).toEqual([]);
    expect(readdirSync(parent).filter((name) => name.includes('.staging-'))).toEqual([]);
  });

  it('says what fills up, not a bug, when the runtime bundle can be neither copied nor linked to an output on another filesystem', () => {
    // /dev/shm (a tmpfs) is another filesystem than the package's: no hard link reaches it (EXDEV).
    const shm = '/dev/shm';
    expect(existsSync(shm) && statSync(shm).dev !== statSync(REPO).dev, 'a tmpfs at /dev/shm').toBe(true);
    const { root } = site();
    const out = mkdtempSync(join(shm, 'docs-test-out-'));
    // A file-size limit fails every write past it as a full disk does (EFBIG for ENOSPC): the bundle's
    // largest chunks are past 200 KiB, a page of the fixture is not.
    const limited = spawnSync('sh', ['-c', 'trap "" XFSZ; ulimit -f 200; exec "$0" "$@"', process.execPath, join(REPO, 'bin', 'docs.mjs'), 'build', '--root', root, '--out', join(out, 'site'), '--no-cache'], { encoding: 'utf8', timeout: 180_000 });
    expect(limited.stderr).not.toMatch(/internal error|EXDEV|\n\s+at /);
    expect(limited.status, limited.stderr).toBe(2);
    expect(limited.stderr).toContain(`error ${join(out, 'site', 'assets')}: cannot be written to the output: the file would pass the size this process may write`);
    expect(limited.stderr).toContain('fix: raise the file-size limit (ulimit -f) and build again');
    expect(readdirSync(out)).toEqual([]);
    rmSync(out, { recursive: true, force: true });
  });

  it('names the output file a full disk refused, with exit 2, not the page as if it were at fault', () => {
    const { root } = site();
    // A page past the file-size limit (a full disk fails the same way): its HTML cannot be written.
    writeFileSync(join(root, 'content/guide/faq.md'), `# FAQ\n\n${'Every answer a new member asks for, written out at length. '.repeat(6_000)}\n`);
    const out = join(dirname(root), 'out');
    const limited = spawnSync('sh', ['-c', 'trap "" XFSZ; ulimit -f 200; exec "$0" "$@"', process.execPath, join(REPO, 'bin', 'docs.mjs'), 'build', '--root', root, '--out', out, '--no-cache'], { encoding: 'utf8', timeout: 180_000 });
    expect(limited.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(limited.status, limited.stderr).toBe(2);
    expect(limited.stderr).toMatch(new RegExp(`error ${join(out, 'guide', 'faq').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/index\\.html: cannot be written to the output: the file would pass the size this process may write`));
    expect(limited.stderr).not.toContain('content/guide/faq.md');
    expect(existsSync(out)).toBe(false);
  });

  it('builds into a folder the user owns under one they may not write, first and in place', () => {
    const { parent, root } = site();
    const www = join(parent, 'www');
    const out = join(www, 'docs');
    mkdirSync(out, { recursive: true });
    if (asRoot) spawnSync('chown', [`${NOBODY}:${NOBODY}`, out]);
    // `www` is root's (as root) or read-only (as a user): no folder can be made beside `docs`.
    chmodSync(www, 0o555);
    const first = buildAsUser(root, out);
    expectBuilt(first);
    expect(readRoute(out, '/guide/install')).toContain('<h1');
    writeFileSync(join(root, 'content/guide/install.md'), '---\ntitle: Install\n---\n\n# Install\n\nDeployed under a folder of root.\n');
    expectBuilt(buildAsUser(root, out));
    expect(readRoute(out, '/guide/install')).toContain('Deployed under a folder of root.');
    expect(readdirSync(out).filter((name) => name.includes('.staging-'))).toEqual([]);
    chmodSync(www, 0o755);
  });

  it('names the file it may not replace while it updates the output in place, and says whether the output changed', () => {
    const { root } = site();
    const out = join(root, 'dist');
    expectBuilt(buildAsUser(root, out));
    // A folder of the output the user may not write (root's, or read-only); a new title changes every page of its sidebar.
    const locked = join(out, 'guide/zebra');
    if (asRoot) spawnSync('chown', ['0:0', locked]);
    else chmodSync(locked, 0o555);
    const zebra = join(root, 'content/guide/zebra.md');
    writeFileSync(zebra, readFileSync(zebra, 'utf8').replace(/^title: .*$/m, 'title: Zebra Renamed'));
    const before = snapshotTree(out);
    const failed = buildAsUser(root, out);
    expect(failed.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(failed.code, failed.stderr).toBe(2);
    expect(failed.stderr).toContain(`error ${join(locked, 'index.html')}: cannot update the output folder: permission denied (EACCES)`);
    // Files moved in before the one that failed: said so, not "left untouched".
    const changed = [...snapshotTree(out)].some(([file, bytes]) => before.get(file) !== bytes) || snapshotTree(out).size !== before.size;
    expect(failed.stderr).toContain(changed ? 'the output was partly updated: fix the cause and build again, and the next build completes it.' : 'the previous output was left untouched.');
    // Fixed: the next build completes it.
    if (asRoot) spawnSync('chown', [`${NOBODY}:${NOBODY}`, locked]);
    else chmodSync(locked, 0o755);
    expectBuilt(buildAsUser(root, out));
    expect(readRoute(out, '/guide/install')).toContain('Zebra Renamed');
  });

  it('publishes, and says what to remove, when the earlier output cannot be deleted; the next builds go on', () => {
    const { parent, root } = site();
    const srv = join(parent, 'srv');
    const out = join(srv, 'docs');
    mkdirSync(srv);
    // The earlier output is another user's (root's, built with `sudo`) or one this user may not empty.
    expectBuilt(runDocs(['build', '--root', root, '--out', out, '--no-cache']));
    if (asRoot) spawnSync('chown', [`${NOBODY}:${NOBODY}`, srv]);
    else chmodSync(join(out, 'guide'), 0o555);
    writeFileSync(join(root, 'content/guide/install.md'), '---\ntitle: Install\n---\n\n# Install\n\nA new output over an old one.\n');
    const replaced = buildAsUser(root, out, '--no-cache');
    expectBuilt(replaced);
    expect(readRoute(out, '/guide/install')).toContain('A new output over an old one.');
    const [left] = readdirSync(srv).filter((name) => name.endsWith('.previous'));
    expect(left).toBeDefined();
    expect(replaced.stderr).toContain(`note: ${join(srv, left!)}, an earlier output or staging folder of this output, could not be removed (permission denied (EACCES)).`);
    expect(replaced.stderr).toContain(`sudo rm -rf '${join(srv, left!)}'`);
    // Every later build goes on, and names it again.
    writeFileSync(join(root, 'content/guide/install.md'), '---\ntitle: Install\n---\n\n# Install\n\nAnd another.\n');
    const next = buildAsUser(root, out);
    expectBuilt(next);
    expect(readRoute(out, '/guide/install')).toContain('And another.');
    expect(next.stderr).toContain(`note: ${join(srv, left!)}`);
    if (!asRoot) chmodSync(join(srv, left!, 'guide'), 0o755);
  });

  it('refuses a build into an output folder another build is writing, and takes over the lock of one that died', () => {
    const { parent, root } = site();
    const out = join(parent, 'shared');
    mkdirSync(out);
    const locks = join(tmpdir(), 'docs-output-locks');
    const lock = join(locks, `${createHash('sha256').update(realpathSync(out)).digest('hex').slice(0, 32)}.lock`);
    mkdirSync(locks, { recursive: true });
    // Another site's build holds the folder (this test's process stands in for it: it runs).
    writeFileSync(lock, `${process.pid}\n${out}\n`);
    const refused = runDocs(['build', '--root', root, '--out', out]);
    expect(refused.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(`error ${realpathSync(out)}: another docs build (process ${process.pid}) is writing this output folder: two at once would mix their files`);
    expect(refused.stderr).toContain('fix: wait for it to end, or build into another folder with --out');
    expect(readdirSync(out)).toEqual([]);
    // A build that died left it: taken over, and let go at the end.
    writeFileSync(lock, `${2 ** 22 + 1}\n${out}\n`);
    expectBuilt(runDocs(['build', '--root', root, '--out', out]));
    expect(readRoute(out, '/guide/install')).toContain('<h1');
    expect(existsSync(lock)).toBe(false);
  });

  it('puts back the output a build moved aside when it was killed before it moved the new one in', () => {
    const { root } = site();
    const out = join(root, 'dist');
    expectBuilt(runDocs(['build', '--root', root]));
    const built = snapshotTree(out);
    // Killed between publishing's two renames: the old output aside, the new one staged, no `dist`.
    const staged = join(root, '.dist.staging-999999-1');
    cpSync(out, staged, { recursive: true });
    renameSync(out, `${staged}.previous`);
    // The next build fails (a broken link): the last output is still the output.
    writeFileSync(join(root, 'content/guide/broken.md'), '# Broken\n\n[nowhere](/nope)\n');
    const failed = runDocs(['build', '--root', root]);
    expect(failed.code, failed.stderr).toBe(1);
    expect(snapshotTree(out)).toEqual(built);
    expect(readdirSync(root).filter((name) => name.includes('.staging-'))).toEqual([]);
  });
});
