/**
 * A new version of docs whose change reaches the output only through the browser bundle (its CSS, a
 * runtime module the server never renders) must not read as "nothing changed" to a rebuild: the
 * generator's version, which keys the unchanged fingerprint and the caches, covers the runtime's
 * sources and the default templates, not only the compiled CLI.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, REPO } from '../support/site';

/** A copy of the docs package (its own compiled CLI and caches), sharing the installed dependencies. */
function copyPackage(parent: string): string {
  const pkg = join(parent, 'docs-package');
  for (const name of ['bin', 'cli', 'runtime', 'templates', 'package.json']) cpSync(join(REPO, name), join(pkg, name), { recursive: true });
  mkdirSync(join(pkg, 'node_modules'));
  for (const name of readdirSync(join(REPO, 'node_modules'))) if (name !== '.cache') symlinkSync(join(REPO, 'node_modules', name), join(pkg, 'node_modules', name));
  return pkg;
}

describe('a new version of docs', () => {
  it('rebuilds the output when only the runtime CSS changed, with the new styles', () => {
    const site = copyFixture('basic');
    const pkg = copyPackage(join(site, '..'));
    const build = () => spawnSync(process.execPath, [join(pkg, 'bin', 'docs.mjs'), 'build', '--root', site, '--json'], { encoding: 'utf8' });
    const cssOf = () => {
      const html = readFileSync(join(site, 'dist', 'index.html'), 'utf8');
      return readFileSync(join(site, 'dist', /href="\/(assets\/[^"]+\.css)"/.exec(html)![1]!), 'utf8');
    };
    expect(build().status).toBe(0);
    expect(cssOf()).not.toContain('#c0ffee');
    const again = JSON.parse(build().stdout.trim().split('\n').pop()!) as { unchanged: boolean };
    expect(again.unchanged).toBe(true);

    appendFileSync(join(pkg, 'runtime', 'components', 'markdown', 'markdown.css'), '\n.markdown mark { background: #c0ffee; }\n');
    const upgraded = build();
    expect(upgraded.status).toBe(0);
    expect(JSON.parse(upgraded.stdout.trim().split('\n').pop()!)).toMatchObject({ unchanged: false });
    expect(cssOf()).toContain('#c0ffee');
  });
});
