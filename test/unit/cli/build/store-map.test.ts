/**
 * The build store is mapped once (cli/build/store.ts `MAP_SIZE`): LMDB would otherwise map its file
 * again each time it outgrew the map and keep every earlier map, so the pages a build touches counted
 * in its memory once per map.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { openStore, STORE_FILE, type PageOutput } from '../../../../cli/build/store';
import { REPO } from '../../../support/site';

describe('the build store', () => {
  it('grows to 40 MB in one map of its file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-store-map-'));
    const store = openStore(dir)!;
    try {
      // Every value goes to the packs (packs.ts): LMDB keeps the keys and places, so long keys grow its
      // file, 20,000 of 1,800 bytes (two to a page of the store).
      for (let batch = 0; batch < 10; batch++) {
        for (let i = 0; i < 2_000; i++) void store.pages.put(randomBytes(900).toString('hex'), { key: 'k' } as PageOutput);
        await store.flush();
      }
      const maps = readFileSync('/proc/self/maps', 'utf8').split('\n').filter((line) => line.endsWith(join(dir, STORE_FILE)));
      expect(statSync(join(dir, STORE_FILE)).size).toBeGreaterThan(40_000_000);
      expect(maps).toHaveLength(1);
    } finally {
      await store.close();
    }
  });
});

describe('the build store in a process whose address space is limited (`ulimit -v`)', () => {
  it('opens and takes writes, with the map LMDB grows, instead of crashing the process', async () => {
    // The store module on its own, run by a Node under a 20 GB limit (below the 32 GB map).
    // Below the repository, so the bundle finds lmdb in its node_modules.
    mkdirSync(join(REPO, 'test/.tmp'), { recursive: true });
    const dir = mkdtempSync(join(REPO, 'test/.tmp/store-limit-'));
    const script = join(dir, 'open.mjs');
    await build({ entryPoints: [join(REPO, 'cli/build/store.ts')], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: join(dir, 'store.mjs'), logLevel: 'error' });
    writeFileSync(script, `import { openStore } from './store.mjs';\nconst store = openStore(${JSON.stringify(join(dir, 'cache'))});\nawait store.search.put('page', [{ text: 'Station 4 counts laps.' }]);\nawait store.flush();\nconsole.log(JSON.stringify(store.search.get('page')));\nawait store.close();\n`);
    const run = spawnSync('bash', ['-c', 'ulimit -v 20000000; exec "$0" "$1"', process.execPath, script], { encoding: 'utf8', cwd: REPO, timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe('[{"text":"Station 4 counts laps."}]');
    rmSync(dir, { recursive: true, force: true });
  });
});
