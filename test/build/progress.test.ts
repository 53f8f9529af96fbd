/** The live progress line: on a terminal one line redrawn in place, in a pipe or with --json nothing. */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, REPO, runDocs } from '../support/site';

/** Runs `docs build` under a pseudo-terminal (util-linux `script`), returning everything it printed. */
function buildOnTerminal(root: string, extra: string[] = []): { code: number | null; output: string } {
  const command = [process.execPath, join(REPO, 'bin', 'docs.mjs'), 'build', '--no-cache', '--root', root, ...extra].map((part) => `'${part}'`).join(' ');
  const result = spawnSync('script', ['-qfec', command, '/dev/null'], { encoding: 'utf8', env: { ...process.env, COLUMNS: '100' } });
  if (result.error) throw new Error(`util-linux script is needed for this test: ${result.error.message}`);
  return { code: result.status, output: result.stdout };
}

/** The fixture `basic` with a config that takes `ms` to load (a top-level await): a long stage with nothing new to report. */
function slowConfigSite(ms: number): string {
  const root = copyFixture('basic');
  const config = join(root, 'site.config.ts');
  writeFileSync(config, `await new Promise((resolve) => setTimeout(resolve, ${ms}));\n${readFileSync(config, 'utf8')}`);
  return root;
}

/**
 * `docs build` under a pseudo-terminal, typing Ctrl-C once the line shows `pattern`: what it printed
 * and how it ended (`script -e` exits as the command did, 130 for one ended by SIGINT).
 */
function interruptOnTerminal(root: string, pattern: RegExp): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, join(REPO, 'bin', 'docs.mjs'), 'build', '--no-cache', '--root', root].map((part) => `'${part}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env: { ...process.env, COLUMNS: '100' } });
  let output = '';
  let typed = false;
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (!typed && pattern.test(output)) {
      typed = true;
      child.stdin.write('\x03');
    }
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

describe('docs build progress', () => {
  it('draws one live line on a terminal (stage, pages done of all, seconds) and erases it before the summary', () => {
    const root = copyFixture('basic');
    const { code, output } = buildOnTerminal(root);
    expect(code, output).toBe(0);
    const frames = output.split('\r\x1b[2K').filter(Boolean);
    expect(frames.length).toBeGreaterThanOrEqual(2);
    expect(output).toMatch(/\r\x1b\[2Kdocs · rendering pages · \d\/6 pages · \d+\.\d s/);
    expect(output).toMatch(/docs · (reading the config|reading the content) · \d+\.\d s/);
    // Erased, then the summary on a clean line.
    expect(frames.at(-1)).toMatch(/^Built 6 pages in [\d.]+ s/);
    expect(output.split('\n').filter((line) => line.includes('docs ·')).length).toBeLessThanOrEqual(1);
  });

  it('keeps its time moving through a long stage that reports nothing new (a config slow to load)', () => {
    const { code, output } = buildOnTerminal(slowConfigSite(2600));
    expect(code, output).toBe(0);
    // One event (the config stage) at the start, then redrawn each second with the time so far.
    for (const seconds of [0, 1, 2]) expect(output).toMatch(new RegExp(`\\r\\x1b\\[2Kdocs · reading the config · ${seconds}\\.\\d s`));
    expect(output.split('\r\x1b[2K').filter(Boolean).at(-1)).toMatch(/^Built 6 pages in [\d.]+ s/);
  });

  it('erases the line when Ctrl-C stops the build, which still ends as interrupted', async () => {
    const { code, output } = await interruptOnTerminal(slowConfigSite(5000), /reading the config · 1\.\d s/);
    expect(code, output).toBe(130);
    // The terminal echoes ^C on the line; the build erases it, so the next prompt starts a clean line.
    expect(output).toMatch(/docs · reading the config · 1\.\d s(\^C)?\r\x1b\[2K$/);
    expect(output).not.toContain('Built');
  });

  it('puts what else is printed meanwhile (a config that logs) on a line of its own, then draws the line again below it', () => {
    const root = copyFixture('basic');
    const config = join(root, 'site.config.ts');
    writeFileSync(config, `setTimeout(() => console.log('specs fetched'), 1200);\nsetTimeout(() => process.stderr.write('half a line'), 1500);\nawait new Promise((resolve) => setTimeout(resolve, 2600));\n${readFileSync(config, 'utf8')}`);
    const { code, output } = buildOnTerminal(root);
    expect(code, output).toBe(0);
    // The line is erased before the first, and the next frame, after a line left unended, starts a new one (the terminal's \r\n).
    expect(output).toMatch(/docs · reading the config · 1\.\d s\r\x1b\[2Kspecs fetched\r\nhalf a line\r\n\r\x1b\[2Kdocs · reading the config · 2\.\d s/);
    expect(output.split('\r\x1b[2K').filter(Boolean).at(-1)).toMatch(/^Built 6 pages in [\d.]+ s/);
  });

  it('draws nothing on a terminal that cannot redraw a line (TERM=dumb)', () => {
    const root = copyFixture('basic');
    const command = [process.execPath, join(REPO, 'bin', 'docs.mjs'), 'build', '--no-cache', '--root', root].map((part) => `'${part}'`).join(' ');
    const result = spawnSync('script', ['-qfec', command, '/dev/null'], { encoding: 'utf8', env: { ...process.env, TERM: 'dumb' } });
    expect(result.status, result.stdout).toBe(0);
    expect(result.stdout).not.toMatch(/\x1b\[2K|rendering pages/);
    expect(result.stdout).toMatch(/^Built 6 pages in [\d.]+ s/);
  });

  it('prints no progress into a pipe, nor with --json on a terminal', () => {
    const root = copyFixture('basic');
    const piped = runDocs(['build', '--no-cache', '--root', root]);
    expect(piped.code).toBe(0);
    expect(piped.stderr + piped.stdout).not.toMatch(/\x1b\[2K|rendering pages/);
    const json = buildOnTerminal(copyFixture('basic'), ['--json']);
    expect(json.code).toBe(0);
    expect(json.output).not.toMatch(/\x1b\[2K|rendering pages/);
    expect(JSON.parse(json.output.trim()).ok).toBe(true);
  });
});
