/**
 * V8's code cache of the compiled CLI (bin/ensure-built.mjs `enableCodeCache`): on a Node that has one
 * (22.1 and later) the `docs` command keeps its compiled code below the compiled CLI; on Node 20 it
 * asks for nothing. The render worker keeps its own on every Node (cli/util/code-cache.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { enableCodeCache } from '../../../bin/ensure-built.mjs';
import { codeCacheFile, runWithCodeCache, type Importer } from '../../../cli/util/code-cache';
import { copyFixture, REPO, runDocs } from '../../support/site';

const nodeHasOne = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

describe("the CLI's code cache", () => {
  it(nodeHasOne ? `is kept below the compiled CLI on Node ${process.versions.node}` : `is not asked for on Node ${process.versions.node}, which has none`, () => {
    if (!nodeHasOne) {
      const before = process.env.NODE_COMPILE_CACHE;
      expect(enableCodeCache()).toBeUndefined();
      expect(process.env.NODE_COMPILE_CACHE).toBe(before);
      return;
    }
    // Node itself would use a folder the environment names: the command is run without one.
    const env = { ...process.env };
    delete env.NODE_COMPILE_CACHE;
    delete env.NODE_DISABLE_COMPILE_CACHE;
    const run = runDocs(['--help'], { env: env as Record<string, string> });
    expect(run.code).toBe(0);
    const cache = join(REPO, 'node_modules', '.cache', 'docs', 'cli', 'v8');
    expect(existsSync(cache)).toBe(true);
    expect(readdirSync(cache, { recursive: true, withFileTypes: true }).some((entry) => entry.isFile())).toBe(true);
  });
});

describe('runWithCodeCache: a CommonJS file run with its own V8 code cache (the render worker on every Node)', () => {
  const folder = (): string => mkdtempSync(join(tmpdir(), 'docs-code-cache-'));
  const runs = (): number => ((globalThis as { __docsCacheRuns?: number }).__docsCacheRuns ??= 0);
  const SOURCE = [
    'globalThis.__docsCacheRuns = (globalThis.__docsCacheRuns ?? 0) + 1;',
    'function sum(n) { let total = 0; for (let i = 0; i < n; i++) total += i; return total; }',
    'globalThis.__docsCacheSum = sum(100);',
    "globalThis.__docsCacheImport = __docsImport('node:path').then((path) => typeof path.join);",
  ].join('\n');
  const importer: Importer = (specifier) => import(specifier);

  it('runs the file without a cache, writes one once it ran, and runs from it the next time, dynamic imports included', async () => {
    const file = join(folder(), 'code.cjs');
    writeFileSync(file, SOURCE);
    const before = runs();
    const first = runWithCodeCache(file, importer);
    expect(first.fromCache).toBe(false);
    expect(runs()).toBe(before + 1);
    expect(existsSync(codeCacheFile(file))).toBe(false);
    first.save();
    expect(statSync(codeCacheFile(file)).size).toBeGreaterThan(0);
    const second = runWithCodeCache(file, importer);
    expect(second.fromCache).toBe(true);
    expect(runs()).toBe(before + 2);
    expect((globalThis as { __docsCacheSum?: number }).__docsCacheSum).toBe(4950);
    // A `vm` script has no `import()` of its own (code-cache.ts): the importer given is what runs, from the cache too.
    await expect((globalThis as { __docsCacheImport?: Promise<string> }).__docsCacheImport).resolves.toBe('function');
    // Nothing to write: it ran from the cache. Only the cache is beside the file (no temporary left).
    const written = statSync(codeCacheFile(file)).mtimeMs;
    second.save();
    expect(statSync(codeCacheFile(file)).mtimeMs).toBe(written);
    expect(readdirSync(dirname(file)).sort()).toEqual([basename(codeCacheFile(file)), 'code.cjs'].sort());
  });

  it('runs as without a cache when the cache is not V8’s for this source, and makes it again', () => {
    const file = join(folder(), 'code.cjs');
    writeFileSync(file, SOURCE);
    writeFileSync(codeCacheFile(file), Buffer.from('not a code cache, or one a killed disk left behind'));
    const before = runs();
    const run = runWithCodeCache(file, importer);
    expect(run.fromCache).toBe(false);
    expect(runs()).toBe(before + 1);
    run.save();
    expect(runWithCodeCache(file, importer).fromCache).toBe(true);
    // The source changed (a new version of docs compiled): its old cache is refused.
    writeFileSync(file, `${SOURCE}\nglobalThis.__docsCacheSum += 1;`);
    expect(runWithCodeCache(file, importer).fromCache).toBe(false);
  });

  it('keeps the code running where the cache cannot be written', () => {
    const file = join(folder(), 'code.cjs');
    writeFileSync(file, SOURCE);
    // A folder where the cache would go: the rename fails, as it would in a read-only install.
    mkdirSync(codeCacheFile(file));
    writeFileSync(join(codeCacheFile(file), 'keep'), '');
    const run = runWithCodeCache(file, importer);
    expect(run.fromCache).toBe(false);
    expect(() => run.save()).not.toThrow();
    expect(readdirSync(dirname(file)).sort()).toEqual([basename(codeCacheFile(file)), 'code.cjs'].sort());
  });

  it('is written by the render threads of a build, beside the compiled worker', () => {
    const workerDir = join(REPO, 'node_modules', '.cache', 'docs', 'cli', 'worker');
    const caches = (): string[] => readdirSync(workerDir).filter((name) => /^worker\.cjs\.\d+\.v8-cache$/.test(name));
    for (const name of caches()) rmSync(join(workerDir, name), { force: true });
    const site = copyFixture('basic');
    const run = runDocs(['build', '--root', site, '--out', join(site, 'dist')]);
    expect(run.code, run.stderr).toBe(0);
    expect(caches().length).toBeGreaterThan(0);
  });
});
