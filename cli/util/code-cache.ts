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
 * checks the data against the source's length and the flags and refuses what does not fit
 * (`script.cachedDataRejected`): the file then runs as without a cache, and the cache is made again.
 * V8 does not check the data itself, and damaged data ends the process with a fatal error (a cache
 * with 64 bytes flipped did: "unreachable code", exit 133): each cache starts with a header of its own
 * (`cacheHeader`), the data's CRC-32 and the source file's size and modification time, and a cache
 * whose header does not fit is not given to V8. It is written to a temporary file and renamed, so a
 * reader never sees half of one; a folder that takes no write (a read-only install) keeps the code
 * running without it.
 *
 * A script compiled by `vm` has no `import()` of its own: Node 20 gives it one only through an
 * experimental option (`vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER`, which warns on every run), and
 * loses it once the Script object is collected (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING, seen in a
 * render thread). So the file gets a function in its place, `__docsImport`, which bin/ensure-built.mjs
 * writes where the compiled code said `import(`.
 */
import { readFileSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cachedDataVersionTag } from 'node:v8';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';

/** A file run with its cache. */
export interface CachedRun {
  /** What the file exported (`module.exports`). */
  exports: Record<string, unknown>;
  /** Whether the file ran from its cache. */
  fromCache: boolean;
  /**
   * Writes the cache as the code is compiled now, once, unless it ran from one. After a run that did
   * much (`refresh`; by default, REFRESH_AFTER_MS or more since the file ran), one it ran from is made
   * again and written when it grew by a tenth: the cache follows the largest build, not the first.
   */
  save(options?: { refresh?: boolean }): void;
}

/** What starts a cache file: then the data's CRC-32, the source's size and its mtime (ms), each 8 bytes. */
const MAGIC = Buffer.from('docs-v8\0');
const HEADER_BYTES = MAGIC.length + 24;

/** The header of a cache of `data` for a source of these stats. */
function cacheHeader(data: Buffer, source: Stats): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header);
  header.writeDoubleLE(crc32(data), MAGIC.length);
  header.writeDoubleLE(source.size, MAGIC.length + 8);
  header.writeDoubleLE(source.mtimeMs, MAGIC.length + 16);
  return header;
}

/** The V8 data of a cache file for a source of these stats, or undefined when its header does not fit. */
function cachedDataOf(file: Buffer, source: Stats): Buffer | undefined {
  if (file.length <= HEADER_BYTES) return undefined;
  const data = file.subarray(HEADER_BYTES);
  return cacheHeader(data, source).equals(file.subarray(0, HEADER_BYTES)) ? data : undefined;
}

/**
 * A run at least this long (ms) did enough to make its cache again (`save`'s `refresh`): making it
 * takes 10–20 ms, which a build with nothing to do (0.25 s) should not pay.
 */
const REFRESH_AFTER_MS = 1000;

/** How much larger (as a factor) the code compiled by a run must be than the cache it ran from for `save` to replace it. */
const GROWN = 1.1;

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
  const stats = statSync(file);
  let cachedData: Buffer | undefined;
  try {
    cachedData = cachedDataOf(readFileSync(cacheFile), stats);
  } catch {
    cachedData = undefined;
  }
  const source = readFileSync(file, 'utf8');
  const script = new Script(`(function (exports, require, module, __filename, __dirname, __docsImport) {${source}\n})`, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const fromCache = cachedData !== undefined && !script.cachedDataRejected;
  let saved = false;
  const module: { exports: Record<string, unknown> } = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(file), module, file, dirname(file), importerOf(file));
  const ran = performance.now();
  return {
    exports: module.exports,
    fromCache,
    save({ refresh = performance.now() - ran >= REFRESH_AFTER_MS } = {}) {
      if (saved || (fromCache && !refresh)) return;
      saved = true;
      const data = script.createCachedData();
      // A cache made by a smaller run (a small site's build) holds fewer functions: made again once a run compiled more.
      if (fromCache && data.length < cachedData!.length * GROWN) return;
      const temporary = `${cacheFile}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
      try {
        writeFileSync(temporary, Buffer.concat([cacheHeader(data, stats), data]));
        renameSync(temporary, cacheFile);
      } catch {
        // No cache (a full disk, a read-only install): the next thread compiles as this one did.
        rmSync(temporary, { force: true });
      }
    },
  };
}
