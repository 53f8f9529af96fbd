/**
 * The build store is mapped once (cli/build/store.ts `MAP_SIZE`): LMDB would otherwise map its file
 * again each time it outgrew the map and keep every earlier map, so the pages a build touches counted
 * in its memory once per map.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, STORE_FILE } from '../../../../cli/build/store';

describe('the build store', () => {
  it('grows to 40 MB in one map of its file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-store-map-'));
    const store = openStore(dir)!;
    try {
      // Page-sized search blocks, as the render threads write them: 10,000 entries of ~4 KB.
      for (let batch = 0; batch < 10; batch++) {
        // Text LZ4 cannot shrink, so the file grows by what is put.
        for (let i = 0; i < 1_000; i++) void store.search.put(`page-${batch}-${i}`, [{ text: randomBytes(2_000).toString('hex') }]);
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
