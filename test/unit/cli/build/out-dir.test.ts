/**
 * The folders a build never replaces, `--force` or not, beyond the site's own (test/build/adversarial.test.ts):
 * the system's top-level folders and the home of every account on the machine, which as root (CI, a
 * container, sudo) are as much at stake as one's own. Checked on `checkOutDir` itself, which only
 * refuses: a test of the whole command that went wrong here would wipe the machine it runs on.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkOutDir } from '../../../../cli/build/write';

const site = mkdtempSync(join(tmpdir(), 'docs-out-dir-'));
mkdirSync(join(site, 'content'));
const paths = { root: site, contentDir: join(site, 'content'), sources: [join(site, 'content'), join(site, 'site.config.ts')] };
const refusal = (out: string): string => {
  try {
    checkOutDir(out, paths, true);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return 'accepted';
};

describe('checkOutDir with --force', () => {
  it('refuses the system folders at the top of the filesystem, there or not', () => {
    for (const folder of ['/etc', '/usr', '/var', '/opt', '/srv', '/tmp', '/home', '/root', '/boot', '/Users', '/Library', '/nix']) {
      expect(refusal(folder), folder).toMatch(/cannot be the output folder: it (is the system folder|holds .+, the home folder of an account on this machine|is the home folder of an account|holds your home folder|is your home folder)/);
    }
  });

  it("refuses every account's home folder and any folder holding one, as the accounts file and /home list them", () => {
    const homes = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .map((line) => line.split(':')[5] ?? '')
      .filter((home) => home.startsWith('/') && home !== '/' && !home.startsWith('/nonexistent') && existsSync(home));
    if (existsSync('/home')) homes.push(...readdirSync('/home', { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => join('/home', entry.name)));
    expect(homes.length).toBeGreaterThan(0);
    for (const home of homes) expect(refusal(home), home).toMatch(/cannot be the output folder: it (is the home folder of an account|is your home folder|is the system folder)/);
  });

  it('takes an ordinary folder: below /tmp, below /var/www, a new one', () => {
    expect(refusal(join(mkdtempSync(join(tmpdir(), 'docs-out-ok-')), 'dist'))).toBe('accepted');
    expect(refusal('/var/www/docs-test-output-that-does-not-exist')).toBe('accepted');
    expect(refusal(join(site, '..', 'portal-dist'))).toBe('accepted');
  });
});
