/**
 * V8's code cache of the compiled CLI (bin/ensure-built.mjs `enableCodeCache`): on a Node that has one
 * (22.1 and later) the `docs` command keeps its compiled code below the compiled CLI; on Node 20 it
 * asks for nothing.
 */
import { existsSync, readdirSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { enableCodeCache } from '../../../bin/ensure-built.mjs';
import { REPO, runDocs } from '../../support/site';

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
