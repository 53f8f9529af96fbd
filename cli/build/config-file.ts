/** Loads `site.config.ts`: compiled by esbuild, imported, and handed to `resolveConfig`. */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { posixRelative, writeWhole } from '../util/fs';
import { basename, join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { DocsError, type Diagnostic } from '../util/errors';
import { resolveConfig, type ResolvedConfig } from './config';
import { hash } from '../util/hash';
import { sameFiles, statsKey } from './unchanged';
import { decodeUtf8 } from '../util/utf8';
import { PACKAGE_ROOT } from '../util/package-root';

/** The config file names looked for, in order. */
const NAMES = ['site.config.ts', 'site.config.mjs', 'site.config.js'];

/** The site config file of `root`; a config error when there is none (not a site's folder). */
export function siteConfigFile(root: string): string {
  const name = NAMES.find((candidate) => existsSync(join(root, candidate)));
  if (!name) {
    throw new DocsError('config', [{ file: join(root, NAMES[0]!), message: 'no site config found', fix: 'create site.config.ts with `export default defineConfig({ … })`' }]);
  }
  return join(root, name);
}

/** Finds, compiles and validates the site config of `root`. */
export async function loadConfig(root: string, env: Record<string, string | undefined>): Promise<ResolvedConfig> {
  const file = siteConfigFile(root);
  const compiled = reusableConfig(root, file) ?? (await compileConfig(root, file));
  compiledConfigs.set(compiled, file);
  let raw: unknown;
  // A config that ends the process while it loads (`process.exit(0)`) would end the build with
  // nothing built and, with 0, a CI job that passes: it throws instead, and is reported as below.
  const exit = (exitWhileLoading = process.exit);
  process.exit = ((code?: number | string | null) => {
    throw new Error(`it calls process.exit(${code ?? ''})`);
  }) as typeof process.exit;
  loading.add(file);
  const watching = watchLoading(file);
  try {
    raw = ((await import(pathToFileURL(compiled).href)) as { default?: unknown }).default;
  } catch (error) {
    watching.stop();
    const missing = missingPackage(file, error);
    if (missing) throw new DocsError('config', [missing]);
    throw new DocsError('config', [{ file, message: `throws while loading: ${reasonOf(error)}`, fix: 'make the config a plain `export default defineConfig({ … })`, or fix what it runs on loading' }]);
  } finally {
    process.exit = exit;
    loading.delete(file);
  }
  let config: ResolvedConfig;
  try {
    if (raw === undefined) throw new DocsError('config', [{ file, message: 'has no default export', fix: 'add `export default defineConfig({ … })`' }]);
    if (typeof (raw as { then?: unknown } | null)?.then === 'function') {
      throw new DocsError('config', [{ file, message: 'its default export is a Promise, not the settings', fix: 'export the settings themselves: `export default defineConfig({ … })`, with any `await` at the top of the file (`const specs = await …;`)' }]);
    }
    config = resolveConfig(raw, { root, configFile: basename(file), env });
  } catch (error) {
    if (error instanceof DocsError) throw error;
    // A getter or a proxy in the config that throws when its settings are read.
    throw new DocsError('config', [{ file, message: `throws while its settings are read: ${reasonOf(error)}`, fix: 'export plain values: `export default defineConfig({ … })`' }]);
  } finally {
    watching.stop();
  }
  checkSidebarFolders(config);
  return config;
}

/**
 * How long a config may run without a pause while it loads (its module code, its getters). A loop
 * that never ends (`while (i < 10)` without `i++`) holds the thread: no timer, no signal handler and
 * no request of `docs serve` runs again, and Ctrl-C is not heard.
 */
const LOADING_LIMIT_MS = Number(process.env.DOCS_TEST_CONFIG_LIMIT_MS) || 15_000;

/**
 * Watches the loading of config `file` from a thread of its own: this thread counts a beat every
 * 100 ms while it is free (an `await` that waits for the network is free); when the beats stop for
 * `LOADING_LIMIT_MS`, the watcher prints the config's error and ends the process (SIGKILL: the held
 * thread runs nothing else, not even an exit).
 */
function watchLoading(file: string): { stop: () => void } {
  const beats = new Int32Array(new SharedArrayBuffer(4));
  const message = `error ${file}: has run for ${LOADING_LIMIT_MS / 1000} s without a pause while it loads: a loop in it that never ends?\n  fix: look for a loop whose condition never changes (a missing i++), or move long work out of the config\nBuild failed: 1 error; the previous output was left untouched.\n`;
  const watcher = new Worker(
    `const { workerData } = require('node:worker_threads');
const beats = new Int32Array(workerData.buffer);
let last = -1;
let since = Date.now();
setInterval(() => {
  const now = Atomics.load(beats, 0);
  if (now !== last) {
    last = now;
    since = Date.now();
  } else if (Date.now() - since >= workerData.limit) {
    require('node:fs').writeSync(2, workerData.message);
    process.kill(process.pid, 'SIGKILL');
  }
}, 250);`,
    { eval: true, workerData: { buffer: beats.buffer, limit: LOADING_LIMIT_MS, message } },
  );
  watcher.unref();
  const beat = setInterval(() => Atomics.add(beats, 0, 1), 100);
  beat.unref();
  let stopped = false;
  return {
    stop: () => {
      if (stopped) return;
      stopped = true;
      clearInterval(beat);
      void watcher.terminate();
    },
  };
}

/** The config files being imported right now (see `configProblemAtExit`). */
const loading = new Set<string>();
/** `process.exit` as it was before a config's import replaced it. */
let exitWhileLoading = process.exit;

/**
 * Ends the process with `code`, a config being imported or not: while one loads, `process.exit` throws
 * (`loadConfig`), and Ctrl-C in `docs serve` then, or a failure the process cannot go on from, was
 * reported as a bug in docs instead of stopping it. An import under way is given up, not reported as
 * one that never finishes (`configProblemAtExit`).
 */
export function exitProcess(code: number): never {
  loading.clear();
  return exitWhileLoading.call(process, code);
}
/** Every config this process imported, by its compiled file (see `configOfError`). */
const compiledConfigs = new Map<string, string>();

/**
 * What to say when the process ends while a config is still being imported: Node ends a process whose
 * top-level `await` waits for something that never comes (exit 13, without a word).
 */
export function configProblemAtExit(): Diagnostic | undefined {
  const [file] = loading;
  if (file === undefined) return undefined;
  // The import never ended, so neither did its replacement of `process.exit`: the caller ends the process.
  process.exit = exitWhileLoading;
  return { file, message: 'never finishes loading: a top-level `await` in it waits for something that never comes', fix: 'await only what settles (a file read, a fetch with a timeout), or compute the value without await' };
}

/**
 * An error no step of a build caught, when it comes from the config: a timer it set or a promise it
 * did not await that fails after it loaded (its stack runs through the compiled config).
 */
export function configOfError(error: unknown): Diagnostic | undefined {
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  for (const [compiled, file] of compiledConfigs) {
    if (!stack.includes(pathToFileURL(compiled).href) && !stack.includes(compiled)) continue;
    return { file, message: `fails after loading, in a timer or a promise it started: ${reasonOf(error)}`, fix: 'await what the config starts (or catch its errors), so that it fails while loading, or not at all' };
  }
  return undefined;
}

/** An error or a thrown value as a message shows it. */
function reasonOf(error: unknown): string {
  // A config may throw anything (`throw 'no backend'`, `throw undefined`), not only an Error.
  return error instanceof Error ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}` : `${thrownValue(error)} (thrown as a value, not an Error)`;
}

/** A thrown value that is not an Error, as a message shows it. */
function thrownValue(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Compiles the config with esbuild (its own imports bundled, packages left to Node) and writes it (`writeCompiledConfig`). */
async function compileConfig(root: string, file: string): Promise<string> {
  // esbuild reads a file of another encoding as UTF-8, each byte it cannot read a U+FFFD on every page.
  const encoding: Diagnostic[] = [];
  decodeUtf8(readFileSync(file), posixRelative(root, file), encoding);
  if (encoding.length > 0) throw new DocsError('config', encoding);
  const { build } = await import('esbuild');
  let code: string;
  let inputs: string[];
  try {
    const result = await build({
      entryPoints: [file],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      packages: 'external',
      alias: { docs: join(PACKAGE_ROOT, 'cli/public.ts') },
      logLevel: 'silent',
      metafile: true,
    });
    code = result.outputFiles[0]!.text;
    inputs = Object.keys(result.metafile.inputs).map((input) => resolve(input));
  } catch (error) {
    const errors = (error as { errors?: { text: string; location?: { file: string; line: number; column: number; lineText: string } }[] }).errors ?? [];
    throw new DocsError(
      'config',
      errors.length > 0
        ? errors.map((e) => ({
            file: e.location ? join(root, e.location.file.replace(/^.*?site\.config/, 'site.config')) : file,
            line: e.location?.line,
            column: e.location ? e.location.column + 1 : undefined,
            message: `does not compile: ${e.text}`,
            fix: e.text.startsWith('Could not resolve') ? 'create the file it imports, or correct its path (relative to the file that imports it)' : 'correct the TypeScript syntax at that place',
          }))
        : [{ file, message: `does not compile: ${(error as Error).message}` }],
    );
  }
  const compiled = writeCompiledConfig(root, code);
  // What the next load checks instead of compiling again: the files esbuild read, as they were.
  const record: CompiledConfig = { entry: file, compiled, inputs: inputs.map((input) => [input, fileStats(input)]) };
  try {
    writeWhole(join(root, 'node_modules', '.cache', 'docs', 'config', RECORD), JSON.stringify(record));
  } catch {
    // Not written (a read-only site): the next load compiles again.
  }
  return compiled;
}

/** The files the config was last compiled from (site.config.ts and what it imports), as the cache records them; none when it does not. */
export function configInputs(root: string): string[] {
  try {
    const record = JSON.parse(readFileSync(join(root, 'node_modules', '.cache', 'docs', 'config', RECORD), 'utf8')) as CompiledConfig;
    // docs' own modules (its public API) count too: an output folder holding them would replace docs
    // itself. A site inside the package's folder (the portal is), or whose path merely begins like it
    // (`/work/docs-portal` beside `/work/docs`), kept none of its imports when they were left out.
    return Array.isArray(record.inputs) ? record.inputs.map(([path]) => path).filter((path) => typeof path === 'string') : [];
  } catch {
    return [];
  }
}

/** `config/last.json` in the site's cache: the last compiled config and the files it was made from. */
interface CompiledConfig {
  /** The config file it was compiled from. */
  entry: string;
  compiled: string;
  inputs: [path: string, stats: string][];
}
const RECORD = 'last.json';

function fileStats(path: string): string {
  try {
    return statsKey(statSync(path));
  } catch {
    return 'missing';
  }
}

/**
 * The compiled config of the last load, when none of the files it was compiled from (the config, the
 * files it imports, docs' own `cli/public.ts`) has changed since: starting esbuild costs a build with
 * nothing to do some 30–50 ms.
 */
function reusableConfig(root: string, entry: string): string | undefined {
  try {
    const record = JSON.parse(readFileSync(join(root, 'node_modules', '.cache', 'docs', 'config', RECORD), 'utf8')) as CompiledConfig;
    const fresh = record.entry === entry && record.inputs.length > 0 && sameFiles(record.inputs) && existsSync(record.compiled);
    return fresh ? record.compiled : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where the compiled config is imported from: the site's cache, so the config's own imports resolve
 * from the site's node_modules; a temporary folder when the site may not be written (a read-only checkout).
 */
function writeCompiledConfig(root: string, code: string): string {
  const name = `site.config.${hash(code).slice(0, 16)}.mjs`;
  const cacheDir = join(root, 'node_modules', '.cache', 'docs', 'config');
  try {
    mkdirSync(cacheDir, { recursive: true });
    const compiled = join(cacheDir, name);
    // Named by its code's hash, so a file there is this code, unless a build was killed while writing
    // it (before they were written whole): one cut short would be imported by every later build.
    if (!existsSync(compiled) || readFileSync(compiled, 'utf8') !== code) writeWhole(compiled, code);
    return compiled;
  } catch {
    const compiled = join(mkdtempSync(join(tmpdir(), 'docs-config-')), name);
    writeFileSync(compiled, code);
    return compiled;
  }
}

/** Every sidebar's folder must exist: a misspelt `dir` would otherwise leave its sidebar silently empty. */
function checkSidebarFolders(config: ResolvedConfig): void {
  if (existsSync(config.contentDir) && !statSync(config.contentDir).isDirectory()) {
    throw new DocsError('config', [{ file: config.configFile, pointer: '/contentDir', message: `the content folder ${posixRelative(config.root, config.contentDir)} is a file, not a folder`, fix: 'point contentDir at the folder of the pages (default "content")' }]);
  }
  // An empty or missing content folder is reported by the content stage, as the one problem it is.
  if (!existsSync(config.contentDir) || readdirSync(config.contentDir).length === 0) return;
  const problems = config.sidebars.flatMap((sidebar, i) => {
    if (sidebar.dir === '.' || sidebar.dir === './') return [];
    const folder = join(config.contentDir, sidebar.dir);
    const isFolder = existsSync(folder) && statSync(folder).isDirectory();
    if (isFolder) return [];
    const folders = existsSync(config.contentDir) ? readdirSync(config.contentDir, { withFileTypes: true }).filter((entry) => entry.isDirectory() && !entry.name.startsWith('.')).map((entry) => entry.name) : [];
    return [{ file: config.configFile, pointer: `/sidebars/${i}/dir`, message: `\`sidebars[${i}].dir\` names the folder "${sidebar.dir}", which does not exist in ${posixRelative(config.root, config.contentDir) || '.'}/`, fix: folders.length > 0 ? `create the folder, or use one that exists: ${folders.join(', ')}` : 'create the folder and put the sidebar\'s pages in it' }];
  });
  if (problems.length > 0) throw new DocsError('config', problems);
}

/**
 * A package the config imports that is not installed, as the writer wrote it: the config's line and the
 * install command (Node names the compiled copy in the build cache, and no line).
 */
function missingPackage(file: string, error: unknown): Diagnostic | undefined {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== 'ERR_MODULE_NOT_FOUND') return undefined;
  const name = /Cannot find package '([^']+)'/.exec(String((error as Error).message))?.[1];
  if (!name) return undefined;
  let line: number | undefined;
  try {
    const quoted = new RegExp(`(['"])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:/[^'"]*)?\\1`);
    const found = readFileSync(file, 'utf8').split('\n').findIndex((text) => quoted.test(text));
    if (found >= 0) line = found + 1;
  } catch {
    // The config is gone meanwhile: no line.
  }
  return { file, ...(line ? { line } : {}), message: `imports the package "${name}", which is not installed`, fix: `install it in the site (npm install ${name}), or remove the import` };
}
