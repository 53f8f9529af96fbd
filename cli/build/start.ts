/**
 * `buildSite`, the entry of a build: the config, the output folder's checks, the store, and the check
 * that nothing changed since the last build (cli/build/unchanged.ts). It loads the rest of the build
 * (cli/build/index.ts and the content, markdown, rendering and bundling modules behind it) only when
 * there is something to build, so a build with nothing to do starts in a fraction of the time.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { withGate, type ResolvedConfig } from './config';
import { configInputs, loadConfig } from './config-file';
import type { BuildOptions, BuildReport } from './index';
import { fitOptimizer } from './optimizer';
import { startPool, type RenderPool } from './pool';
import { inputFingerprint, readUnchanged, sameFiles, stampOutputs, type TreeListing } from './unchanged';
import { checkOutDir, realPath } from './write';
import { removeDeadStaging } from './publish';
import { lockOutput } from './output-lock';
import { STATE_FILE } from './search/state';
import { generatorVersion } from './version';

/** Builds the site into `outDir`; throws a `DocsError` (and leaves `outDir` untouched) on any error. */
export async function buildSite(options: BuildOptions): Promise<BuildReport> {
  const started = performance.now();
  const root = resolve(options.root);
  // The real folder (symbolic links resolved), so the checks and the staging folder see what is replaced.
  const outDir = realPath(options.outDir ?? join(root, 'dist'));
  // A build with no output folder yet, or no cache, renders every page: its first render thread starts
  // now and loads its modules (half a second of a small site's build) while this thread compiles the
  // config; the highlighter's settings and the site's size, which may start the others, follow
  // (`configure`). A failed build stops it on its way out.
  const early = options.workerUrl && !options.renderThread && (options.cache === false || !existsSync(outDir)) ? startPool({ workerUrl: options.workerUrl, threads: options.threads, files: 0 }) : undefined;
  try {
    options.onProgress?.({ stage: 'config' });
    const config = withGate(await loadConfig(root, options.env ?? {}), options.gate);
    // For the tests only: a promise the build forgot that fails, as a bug would make one (cli/main.ts).
    if (process.env.DOCS_TEST_STRAY_REJECTION) void Promise.reject(new Error('a promise the build forgot failed'));
    checkOutDir(outDir, { root, contentDir: config.contentDir, sources: [config.contentDir, join(root, 'site.config.ts'), join(root, 'templates'), ...config.openapi.map((spec) => join(root, spec.file)), ...configInputs(root)], specDirs: config.openapi.map((spec) => dirname(join(root, spec.file))) }, options.force);
    // The archive's place, before anything is built: a refusal after the build would come with the output replaced.
    if (options.archive) (await import('./archive')).checkArchivePath(options.archive, { outDir, state: { root, config } });
    // One build at a time into this folder (output-lock.ts).
    const release = lockOutput(outDir);
    try {
      return await buildLocked({ options, started, root, outDir, config, early });
    } finally {
      release();
    }
  } finally {
    await early?.close();
  }
}

/** The build once the output folder is checked and locked: the store, the no-change check, then `buildWith`. */
async function buildLocked({ options, started, root, outDir, config, early }: { options: BuildOptions; started: number; root: string; outDir: string; config: ResolvedConfig; early: RenderPool | undefined }): Promise<BuildReport> {
  const { left: leftovers } = removeDeadStaging(outDir);
  const cacheDir = options.cache === false ? undefined : join(root, 'node_modules', '.cache', 'docs');
  // Nothing changed since the last build into this folder, in the sources or in the output: the
  // output stands (unchanged.ts). Checked before the store is even opened.
  // What the fingerprint saw of the content folder, so the content walk need not look again.
  const listing: TreeListing | undefined = options.unchanged && cacheDir ? { folders: new Map(), files: new Map() } : undefined;
  const inputs = listing ? inputFingerprint(root, config, outDir, listing) : undefined;
  // The content's files (pages and images alike) say how large the site is: a small one builds faster unoptimized.
  fitOptimizer({ pages: listing?.files.size });
  const last = inputs && cacheDir ? readUnchanged(cacheDir, outDir) : undefined;
  // The output's stamps now, when the inputs are as they were; a build that runs takes them itself otherwise (presentFiles).
  const now = last && last.inputs === inputs && sameFiles(last.refFiles) ? stampOutputs(outDir, last.outputs) : undefined;
  if (last && now?.digest === last.outputDigest) {
    return { outDir, pages: last.pages, cachedPages: last.pages, warnings: last.warnings, seconds: (performance.now() - started) / 1000, searchSeconds: 0, unchanged: true, ...(leftovers.length > 0 ? { leftovers } : {}) };
  }
  const { openStore } = await import('./store');
  const store = cacheDir ? openStore(cacheDir) : undefined;
  // The record of the output this folder holds, when the store has one: the build then updates it in
  // place. Without one every page will be rendered: the workers start now and warm up (imports,
  // highlighter) while this thread reads the content. A rebuild starts them only if needed.
  const record = store?.meta.get('output');
  const previous = record && record.outDir === outDir && existsSync(outDir) ? record : undefined;
  early?.configure(config.markdown, listing?.files.size);
  const pool = options.workerUrl && !previous ? (early ?? startPool({ workerUrl: options.workerUrl, threads: options.threads, files: listing?.files.size, highlighting: config.markdown })) : undefined;
  // A rebuild renders what changed, seldom more than a few pages: one thread starts now and loads the
  // markdown pipeline and the highlighter on another core while this one finds what changed (0.4 s of
  // a one-page edit at 10,000 pages). `docs serve` keeps a thread of its own (`renderThread`).
  // It may make the search index too (search/index-thread.ts): it reads the previous index's state meanwhile.
  const warmed = options.workerUrl && previous && !options.renderThread && availableParallelism() > 1 ? options.workerUrl : undefined;
  const indexState = warmed && cacheDir ? { stateFile: join(cacheDir, STATE_FILE), salt: generatorVersion() } : undefined;
  const warm = warmed ? startPool({ workerUrl: warmed, threads: 1, highlighting: config.markdown, ...(indexState ? { indexState } : {}) }) : undefined;
  try {
    // The rest of the build (content, markdown, React, esbuild, the OpenAPI parser) loads only now.
    const { buildWith } = await import('./index');
    return await buildWith({ options, started, root, outDir, config, cacheDir, store, previous, pool, warm, indexState, inputs: store ? inputs : undefined, last, listing, now, leftovers });
  } finally {
    // The workers commit their cache writes before they stop, and the store closes after them.
    await Promise.all([pool?.close(), warm?.close()]);
    await store?.close().catch(() => undefined);
  }
}
