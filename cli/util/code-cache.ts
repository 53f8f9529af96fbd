/**
 * Runs a CommonJS file with V8's code cache of it, kept beside it: the compiled CLI (main.cjs, run by
 * bin/ensure-built.mjs `loadCli`) and the render worker (worker.cjs, cli/build/worker-loader.ts). Node
 * 20 has no compile cache (`module.enableCompileCache` came with 22.1, and caches a module as compiled
 * before it runs), so each command and each render thread parsed megabytes and compiled every
 * function it then called: ~0.25 s of a render thread's CPU on the portal (V8's
 * `--log-function-events`). Here the cache is made once the code has done its work (a build, a
 * thread's first build), so it holds those functions too, and the next run starts with them compiled.
 *
 * The cache is named by `v8.cachedDataVersionTag()` (V8's version, its flags, the CPU's features): a
 * thread started under other flags (`--no-opt` for a small site, see optimizer.ts) has its own. V8
 * checks the data against the source and flags and refuses what does not fit
 * (`script.cachedDataRejected`): the file then runs as without a cache, and the cache is made again. It
 * is written to a temporary file and renamed, so a reader never sees half of one; a folder that takes
 * no write (a read-only install) keeps the code running without it.
 *
 * A script compiled by `vm` has no `import()` of its own: Node 20 gives it one only through an
 * experimental option (`vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER`, which warns on every run), and
 * loses it once the Script object is collected (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING, seen in a
 * render thread). So the file gets a function in its place, `__docsImport`, which bin/ensure-built.mjs
 * writes where the compiled code said `import(`.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cachedDataVersionTag } from 'node:v8';
import { Script } from 'node:vm';

/** A file run with its cache. */
export interface CachedRun {
  /** What the file exported (`module.exports`). */
  exports: Record<string, unknown>;
  /** Whether the file ran from its cache. */
  fromCache: boolean;
  /** Writes the cache as the code is compiled now, unless it ran from one (or was written already). */
  save(): void;
}

/** The cache of `file` for this process's V8 and flags. */
export function codeCacheFile(file: string): string {
  return `${file}.${cachedDataVersionTag()}.v8-cache`;
}

/**
 * The file's `import()`: a specifier relative to the file resolves from the file's folder, a package
 * from this module's (both below the docs package, whose node_modules they reach).
 */
function importerOf(file: string): (specifier: string) => Promise<unknown> {
  const base = pathToFileURL(file);
  return (specifier) => import(specifier.startsWith('./') || specifier.startsWith('../') ? new URL(specifier, base).href : specifier);
}

/** Runs the CommonJS file `file`, as Node would, with its code cache. */
export function runWithCodeCache(file: string): CachedRun {
  const cacheFile = codeCacheFile(file);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const source = readFileSync(file, 'utf8');
  const script = new Script(`(function (exports, require, module, __filename, __dirname, __docsImport) {${source}\n})`, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const fromCache = cachedData !== undefined && !script.cachedDataRejected;
  let saved = fromCache;
  const module: { exports: Record<string, unknown> } = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(file), module, file, dirname(file), importerOf(file));
  return {
    exports: module.exports,
    fromCache,
    save() {
      if (saved) return;
      saved = true;
      const temporary = `${cacheFile}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
      try {
        writeFileSync(temporary, script.createCachedData());
        renameSync(temporary, cacheFile);
      } catch {
        // No cache (a full disk, a read-only install): the next thread compiles as this one did.
        rmSync(temporary, { force: true });
      }
    },
  };
}
