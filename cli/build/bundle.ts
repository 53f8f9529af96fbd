/**
 * Stage 7, bundle: esbuild bundles the browser runtime (ESM, minified, content-hashed, code-split) with
 * its CSS. The result is kept with the package, by a hash of the runtime sources, the generator and
 * the lockfile, and linked into each output.
 */
import { ioError } from './write';
import { constants, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { copyFile, link, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { hash } from '../util/hash';
import { PACKAGE_ROOT } from '../util/package-root';
import { posixRelative } from '../util/fs';
import type { AssetUrls } from './render';
import { generatorVersion } from './version';
import { HEAD_SCRIPT_OPTIONS } from '../../runtime/head-script';
import { bundlePageAndIslands } from './islands';
import { isRunning } from './publish';
import type { Plugin } from 'esbuild';

function runtimeSources(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...runtimeSources(path));
    else if (/\.(tsx?|css)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) files.push(path);
  }
  return files.sort();
}

/**
 * Copies every file of `from` that `wanted` names (by its path below the output, `rel` being `from`'s)
 * into `to`, all at once through libuv's threads: the cached bundle is 5 MB, 50 ms of copying that a
 * cold build does while its pages render.
 */
async function linkTree(from: string, to: string, rel: string, wanted: (rel: string) => boolean): Promise<void> {
  const copies: Promise<void>[] = [];
  const visit = (dir: string, into: string, below: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) visit(join(dir, entry.name), join(into, entry.name), `${below}${entry.name}/`);
      else if (wanted(below + entry.name)) {
        mkdirSync(into, { recursive: true });
        copies.push(copyOrLink(join(dir, entry.name), join(into, entry.name)));
      }
    }
  };
  visit(from, to, rel);
  // Every copy ends before the first failure is told: none is left writing into a folder being removed.
  const outcomes = await Promise.allSettled(copies);
  const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * A copy (a clone where the filesystem shares blocks), not a hard link: a file of the output changed by
 * hand, or by a tool that writes in place, would change the package's cached bundle too, and every
 * site's next build with it. On a full disk (or under a file-size limit) a hard link, which takes no
 * room, is better than no output.
 */
async function copyOrLink(source: string, target: string): Promise<void> {
  try {
    await copyFile(source, target, constants.COPYFILE_FICLONE);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOSPC' && code !== 'EFBIG' && code !== 'EDQUOT') throw error;
    await rm(target, { force: true });
    try {
      await link(source, target);
    } catch {
      // No link either (the output on another filesystem than the package: EXDEV): the full disk is what to say.
      throw error;
    }
  }
}

/** A bundle of the runtime, kept with the package. */
export interface RuntimeBundle {
  urls: AssetUrls;
  /** The folder that becomes the output's `assets/` (see `linkBundle`). */
  assetsDir: string;
}

/** Where `linkBundle` copies a bundle to. */
export interface BundleTarget {
  /** The staging folder: the files go to its `assets/`. */
  staging: string;
  /** The output folder it will become, named in an error. */
  outDir: string;
  /** Which files (by path below the output); a rebuild in place links only the files the output lacks, their names being hashes of their bytes. */
  wanted?: (rel: string) => boolean;
}

/** Copies a bundle's files into the staging folder's `assets/`: all of them, or those `wanted` says. */
export async function linkBundle(bundle: RuntimeBundle, { staging, outDir, wanted = () => true }: BundleTarget): Promise<void> {
  try {
    await linkTree(bundle.assetsDir, join(staging, 'assets'), 'assets/', wanted);
  } catch (error) {
    // A full disk or a file-size limit is the reader's to fix, said as such (write.ts `ioError`).
    throw ioError(error, join(outDir, 'assets'), 'cannot be written to the output');
  }
}

/** The words of Go's system errors, which esbuild reports when it cannot write its output, by code. */
const GO_IO_ERRORS: [RegExp, string][] = [
  [/no space left on device/, 'ENOSPC'],
  [/disk quota exceeded/, 'EDQUOT'],
  [/file too large/, 'EFBIG'],
  [/permission denied/, 'EACCES'],
  [/operation not permitted/, 'EPERM'],
  [/read-only file system/, 'EROFS'],
];

const CANNOT_WRITE = "cannot write the docs package's bundle cache";

/**
 * A failure to write the bundle as the I/O error it is (see `ioError`), naming `dir`: Node's, or
 * esbuild's (`Failed to write to output file: write …: no space left on device`); any other error as
 * it came.
 */
export function bundleWriteError(error: unknown, dir: string): unknown {
  const texts = (error as { errors?: { text?: string }[] } | undefined)?.errors?.map((found) => found.text ?? '') ?? [];
  for (const text of texts) {
    const code = text.startsWith('Failed to write to output file') ? GO_IO_ERRORS.find(([words]) => words.test(text))?.[1] : undefined;
    if (code) return ioError(Object.assign(new Error(text), { code }), dir, CANNOT_WRITE);
  }
  return ioError(error, dir, CANNOT_WRITE);
}

/**
 * Bundles the runtime (or finds the bundle made from the same sources) and returns its URLs and folder.
 * A complete bundle (its `urls.json` is written last) is always taken, by every build, `--no-cache`
 * ones too: it is the package's, named by the hash of everything it is made from, and other builds
 * (other sites, `docs serve`) may be copying its files that moment — a `--no-cache` build that made it
 * again removed it under them (ENOENT, exit 70).
 */
export async function bundleRuntime(): Promise<RuntimeBundle> {
  const runtimeDir = join(PACKAGE_ROOT, 'runtime');
  const files = runtimeSources(runtimeDir);
  // The bundle depends on the runtime's sources, the bundler settings (part of the generator) and the
  // versions of React and mermaid (the lockfile).
  const lockfile = join(PACKAGE_ROOT, 'package-lock.json');
  const inputs = [generatorVersion(), existsSync(lockfile) ? readFileSync(lockfile, 'utf8') : ''];
  const key = hash([...inputs, ...files.map((file) => `${relative(runtimeDir, file)}\0${readFileSync(file, 'utf8')}`)].join('\0'));
  // esbuild's chunk hashes depend on where the output folder sits and on the working directory, so
  // the bundle is always made at the same depth below the package, from the package, whichever site
  // is built from wherever: every build of the same sources gets the same file names.
  const bundles = process.env.DOCS_TEST_BUNDLE_DIR ?? join(PACKAGE_ROOT, 'node_modules', '.cache', 'docs', 'bundle');
  const final = join(bundles, key);
  const assetsDir = join(final, 'assets');
  const complete = (): RuntimeBundle | undefined => (existsSync(join(final, 'urls.json')) ? { urls: JSON.parse(readFileSync(join(final, 'urls.json'), 'utf8')) as AssetUrls, assetsDir } : undefined);
  const found = complete();
  if (found) return found;
  const { build } = await import('esbuild');
  // Made in a folder of its own, beside its place, and renamed into it whole: builds started together
  // (a CI job running several, docs serve beside docs build) each make it and the first rename wins;
  // none removes the files another is writing or copying (a build that did failed with ENOENT).
  const staging = `${final}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  try {
    removeAbandoned(bundles);
    mkdirSync(staging, { recursive: true });
  } catch (error) {
    // The package's folder may not be ours to write (installed by another user): a bundle made there
    // from the same sources is as good as a fresh one.
    const made = complete();
    if (made) return made;
    throw bundleWriteError(error, staging);
  }
  try {
    const urls = await makeBundle(build, runtimeDir, join(staging, 'assets'));
    writeFileSync(join(staging, 'urls.json'), JSON.stringify(urls));
    placeBundle(staging, final);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // A full disk (or a file-size limit) while the bundle is written is the machine's problem, said as
    // such; nothing of it is in place then, so the next build makes it again.
    throw bundleWriteError(error, staging);
  }
  // In place now: this build's, or the same one another build placed first.
  return complete()!;
}

/**
 * Renames a finished bundle into its place. Another build may have put the same bundle there first:
 * it is kept and this one removed. A folder there without `urls.json` (left by a version that made the
 * bundle in place, killed halfway) is replaced.
 */
function placeBundle(staging: string, final: string): void {
  try {
    renameSync(staging, final);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    if (existsSync(join(final, 'urls.json'))) {
      rmSync(staging, { recursive: true, force: true });
      return;
    }
    rmSync(final, { recursive: true, force: true });
    placeBundle(staging, final);
  }
}

/** Removes the staging folders of builds that were killed while they made a bundle (their process is gone). */
function removeAbandoned(bundles: string): void {
  let names: string[];
  try {
    names = readdirSync(bundles);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/\.tmp-(\d+)-/.exec(name)?.[1]);
    if (!pid || isRunning(pid)) continue;
    rmSync(join(bundles, name), { recursive: true, force: true });
  }
}

/** Points the runtime's automatic JSX imports at `runtime/jsx-runtime.ts` (see there why), except the shim's own. */
function jsxAsModule(shim: string): Plugin {
  return {
    name: 'docs-jsx-as-module',
    setup(build) {
      build.onResolve({ filter: /^react\/jsx-runtime$/ }, (args) => (args.importer === shim ? undefined : { path: shim }));
    },
  };
}

/**
 * The page's script once more through terser's name mangler, which names the variables the way gzip
 * likes better than esbuild's does (React's code, mostly): 1.1 KB of gzip less in the one file every
 * reader downloads, kept under 80 KB (issue 3's budget) this way. Its compressor takes nothing more
 * (80,802 B with two passes against 80,744 B without) and 3 s where the mangler alone takes 0.75 s.
 * Written as `app.[hash of its bytes].js`, once per version of the runtime.
 */
async function squeeze(file: string): Promise<string> {
  const { minify } = await import('terser');
  const { code } = await minify(readFileSync(file, 'utf8'), { module: true, ecma: 2020, compress: false, format: { comments: false } });
  if (code === undefined) throw new Error(`terser returned no code for ${file}`);
  const named = join(dirname(file), `app.${hash(code).slice(0, 8).toUpperCase()}.js`);
  writeFileSync(named, code);
  rmSync(file);
  return relative(PACKAGE_ROOT, named);
}

/** Runs esbuild over the runtime into `assetsDir` and returns the URLs of what a page loads. */
async function makeBundle(build: typeof import('esbuild').build, runtimeDir: string, assetsDir: string): Promise<AssetUrls> {
  const { entryJs, entryCss } = await bundlePageAndIslands(build, join(runtimeDir, 'entry-client.tsx'), {
    outdir: assetsDir,
    entryNames: '[name].[hash]',
    chunkNames: 'chunks/[name].[hash]',
    assetNames: '[name].[hash]',
    absWorkingDir: PACKAGE_ROOT,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
    minify: true,
    jsx: 'automatic',
    // React's production build, and valtio's: its development checks run unless `import.meta.env.MODE` (Vite's convention) says so.
    define: { 'process.env.NODE_ENV': '"production"', 'import.meta.env.MODE': '"production"', 'import.meta.env': 'true' },
    legalComments: 'none',
    // The site icon (templates/favicon.svg, written to the output root) doubles as the login logo.
    external: ['/favicon.svg'],
    logLevel: 'silent',
    plugins: [jsxAsModule(join(runtimeDir, 'jsx-runtime.ts'))],
  });
  const pageScript = await squeeze(join(PACKAGE_ROOT, entryJs));
  // The inline head script, bundled on its own: the same bytes for every page (see HEAD_SCRIPT_OPTIONS).
  const head = await build({
    stdin: { contents: `import { applyBeforePaint } from './head-script';\nimport { isAuthenticated } from './auth/credentials';\napplyBeforePaint(${HEAD_SCRIPT_OPTIONS}, isAuthenticated);\n`, resolveDir: runtimeDir, loader: 'ts' },
    absWorkingDir: PACKAGE_ROOT,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
    minify: true,
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const url = (file: string): string => `/assets/${posixRelative(assetsDir, join(PACKAGE_ROOT, file))}`;
  // One script per page, which imports nothing statically (see islands.ts): nothing to preload.
  const urls: AssetUrls = { js: url(pageScript), css: entryCss ? url(entryCss) : '', preload: [], headScript: head.outputFiles[0]!.text.trim() };
  return urls;
}
