/**
 * V8's code cache of the compiled CLI (bin/ensure-built.mjs `enableCodeCache`): on a Node that has one
 * (22.1 and later) the `docs` command keeps its compiled code below the compiled CLI; on Node 20 it
 * asks for nothing. The render worker keeps its own on every Node (cli/util/code-cache.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { enableCodeCache } from '../../../bin/ensure-built.mjs';
import { codeCacheFile, runWithCodeCache } from '../../../cli/util/code-cache';
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
  /** A new folder holding the file and the module it imports beside it; the file's path. */
  const code = (source: string): string => {
    const file = join(mkdtempSync(join(tmpdir(), 'docs-code-cache-')), 'code.cjs');
    writeFileSync(file, source);
    writeFileSync(join(dirname(file), 'sibling.mjs'), "export const name = 'beside the file';\n");
    return file;
  };
  const runs = (): number => ((globalThis as { __docsCacheRuns?: number }).__docsCacheRuns ??= 0);
  const SOURCE = [
    'globalThis.__docsCacheRuns = (globalThis.__docsCacheRuns ?? 0) + 1;',
    'function sum(n) { let total = 0; for (let i = 0; i < n; i++) total += i; return total; }',
    'globalThis.__docsCacheSum = sum(100);',
    "globalThis.__docsCacheImport = __docsImport('node:path').then((path) => typeof path.join);",
    "globalThis.__docsCacheSibling = __docsImport('./sibling.mjs').then((sibling) => sibling.name);",
    'module.exports.answer = 42;',
  ].join('\n');

  it('runs the file without a cache, writes one once it ran, and runs from it the next time, dynamic imports included', async () => {
    const file = code(SOURCE);
    const before = runs();
    const first = runWithCodeCache(file);
    expect(first.exports.answer).toBe(42);
    expect(first.fromCache).toBe(false);
    expect(runs()).toBe(before + 1);
    expect(existsSync(codeCacheFile(file))).toBe(false);
    first.save();
    expect(statSync(codeCacheFile(file)).size).toBeGreaterThan(0);
    const second = runWithCodeCache(file);
    expect(second.fromCache).toBe(true);
    expect(runs()).toBe(before + 2);
    expect((globalThis as { __docsCacheSum?: number }).__docsCacheSum).toBe(4950);
    // A `vm` script has no `import()` of its own (code-cache.ts): the importer given is what runs, from the cache too.
    await expect((globalThis as { __docsCacheImport?: Promise<string> }).__docsCacheImport).resolves.toBe('function');
    // A relative specifier is the file's, not the module's that runs it.
    await expect((globalThis as { __docsCacheSibling?: Promise<string> }).__docsCacheSibling).resolves.toBe('beside the file');
    expect(second.exports.answer).toBe(42);
    // Nothing to write: it ran from the cache. Only the cache is beside the file (no temporary left).
    const written = statSync(codeCacheFile(file)).mtimeMs;
    second.save();
    expect(statSync(codeCacheFile(file)).mtimeMs).toBe(written);
    expect(readdirSync(dirname(file)).sort()).toEqual([basename(codeCacheFile(file)), 'code.cjs', 'sibling.mjs'].sort());
  });

  it('runs as without a cache when the cache is not V8’s for this source, and makes it again', () => {
    const file = code(SOURCE);
    writeFileSync(codeCacheFile(file), Buffer.from('not a code cache, or one a killed disk left behind'));
    const before = runs();
    const run = runWithCodeCache(file);
    expect(run.fromCache).toBe(false);
    expect(runs()).toBe(before + 1);
    run.save();
    expect(runWithCodeCache(file).fromCache).toBe(true);
    // The source changed (a new version of docs compiled): its old cache is refused.
    writeFileSync(file, `${SOURCE}\nglobalThis.__docsCacheSum += 1;`);
    expect(runWithCodeCache(file).fromCache).toBe(false);
  });

  it('does not give V8 a damaged cache (V8 would end the process) nor one of another source of the same length', () => {
    const file = code(SOURCE);
    runWithCodeCache(file).save();
    const good = readFileSync(codeCacheFile(file));
    // 64 bytes flipped in the middle of V8's data: given to V8, this ended the process ("unreachable code").
    const damaged = Buffer.from(good);
    for (let at = damaged.length >> 1; at < (damaged.length >> 1) + 64; at++) damaged[at]! ^= 0xff;
    writeFileSync(codeCacheFile(file), damaged);
    const before = runs();
    const run = runWithCodeCache(file);
    expect(run.fromCache).toBe(false);
    expect(runs()).toBe(before + 1);
    run.save();
    expect(readFileSync(codeCacheFile(file)).equals(damaged)).toBe(false);
    expect(runWithCodeCache(file).fromCache).toBe(true);
    // The same length, other code (V8 checks the length only): its cache is not this file's.
    writeFileSync(file, SOURCE.replace('sum(100)', 'sum(200)'));
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(runWithCodeCache(file).fromCache).toBe(false);
    expect((globalThis as { __docsCacheSum?: number }).__docsCacheSum).toBe(19900);
  });

  it('is made again after a long run that compiled more than the cache held, not after a short or like one', () => {
    // Two hundred functions, compiled only when a run calls them.
    const many = Array.from({ length: 200 }, (_, n) => `function f${n}(x) { const list = []; for (let i = 0; i < x; i++) list.push(i * ${n}); return list.reduce((a, b) => a + b, 0); }`);
    const file = code(`${SOURCE}\n${many.join('\n')}\nif (globalThis.__docsCacheMore) globalThis.__docsCacheMoreSum = [${many.map((_, n) => `f${n}(3)`).join(', ')}].length;`);
    const more = (value: boolean): void => void ((globalThis as { __docsCacheMore?: boolean }).__docsCacheMore = value);
    more(false);
    runWithCodeCache(file).save();
    const small = statSync(codeCacheFile(file)).size;
    // From the cache, a run that called them: made again only when asked to (a long run).
    more(true);
    runWithCodeCache(file).save();
    expect(statSync(codeCacheFile(file)).size).toBe(small);
    const longer = runWithCodeCache(file);
    expect(longer.fromCache).toBe(true);
    longer.save({ refresh: true });
    const large = statSync(codeCacheFile(file)).size;
    expect(large).toBeGreaterThan(small * 1.1);
    // The same again: nothing grew, nothing written.
    const written = statSync(codeCacheFile(file)).mtimeMs;
    runWithCodeCache(file).save({ refresh: true });
    expect(statSync(codeCacheFile(file)).mtimeMs).toBe(written);
    // A smaller run does not shrink it.
    more(false);
    runWithCodeCache(file).save({ refresh: true });
    expect(statSync(codeCacheFile(file)).size).toBe(large);
  });

  it('keeps the code running where the cache cannot be written', () => {
    const file = code(SOURCE);
    // A folder where the cache would go: the rename fails, as it would in a read-only install.
    mkdirSync(codeCacheFile(file));
    writeFileSync(join(codeCacheFile(file), 'keep'), '');
    const run = runWithCodeCache(file);
    expect(run.fromCache).toBe(false);
    expect(() => run.save()).not.toThrow();
    expect(readdirSync(dirname(file)).sort()).toEqual([basename(codeCacheFile(file)), 'code.cjs', 'sibling.mjs'].sort());
  });

  it('is written by a build for the CLI and its render threads, beside the compiled files', () => {
    const cli = join(REPO, 'node_modules', '.cache', 'docs', 'cli');
    const caches = (dir: string, name: string): string[] => readdirSync(dir).filter((found) => found.startsWith(`${name}.`) && found.endsWith('.v8-cache'));
    const clear = (): void => {
      for (const name of caches(cli, 'main.cjs')) rmSync(join(cli, name), { force: true });
      for (const name of caches(join(cli, 'worker'), 'worker.cjs')) rmSync(join(cli, 'worker', name), { force: true });
    };
    clear();
    const site = copyFixture('basic');
    const run = runDocs(['build', '--root', site, '--out', join(site, 'dist')]);
    expect(run.code, run.stderr).toBe(0);
    expect(caches(cli, 'main.cjs').length).toBeGreaterThan(0);
    expect(caches(join(cli, 'worker'), 'worker.cjs').length).toBeGreaterThan(0);
  });
});
