/** The live progress line: on a terminal one line redrawn in place, in a pipe or with --json nothing. */
import { spawnSync } from 'node:child_process';
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
