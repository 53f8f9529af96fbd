/**
 * The runtime as one page script and its islands (the modules the page loads with `import()`: the
 * login screen, the search dialog, mermaid, code-sample tabs), in two esbuild builds instead of one.
 *
 * One build with code splitting puts whatever an island shares with the page (React, the JSX runtime,
 * esbuild's own helpers, a store the login screen writes) into chunks of their own, which every page
 * then fetches beside its entry: five files where one would do, each compressed on its own. Here the
 * page's script holds all it runs, and lends the islands the modules they share with it: it puts
 * their namespaces on `globalThis.__docsHost`, keyed by a number, before anything else runs, and an
 * island's `import { useState } from 'react'` reads `__docsHost[n]`. The islands are built first (they
 * still split among themselves: mermaid's diagram types), so the page's script can name their files.
 */
import type { BuildOptions, Plugin, build as esbuildBuild } from 'esbuild';
import { basename, join, posix, relative } from 'node:path';

/** The global the page's script lends its modules through. */
const HOST = '__docsHost';
/** Marks a resolution a plugin asks esbuild for itself, so the plugin does not see it again. */
const OWN = Symbol('docs-own-resolve');

type Build = typeof esbuildBuild;
type Resolver = Parameters<Plugin['setup']>[0];
type Args = Parameters<Parameters<Resolver['onResolve']>[1]>[0];

/** The path `args` resolves to, as esbuild would resolve it without this plugin (undefined when it does not resolve). */
async function resolveAsEsbuild(build: Resolver, args: Args): Promise<string | undefined> {
  const found = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: OWN });
  return found.errors.length > 0 || found.external ? undefined : found.path;
}

/** What `bundlePageAndIslands` made: the page's script (the only file a page loads) and its stylesheet, relative to `absWorkingDir`. */
export interface PageAndIslands {
  entryJs: string;
  entryCss?: string;
}

/**
 * Bundles `entry` (written as `app.[hash].js`) and the islands it imports with `import()` (as
 * `chunks/[name].[hash].js`) into `options.outdir`. `options` are the settings both builds share.
 */
export async function bundlePageAndIslands(build: Build, entry: string, options: BuildOptions & { outdir: string; absWorkingDir: string }): Promise<PageAndIslands> {
  const cwd = options.absWorkingDir;
  // Ours first: they ask esbuild to resolve a path with the caller's (the runtime's JSX shim, say).
  const plugins = (ours: Plugin): Plugin[] => [ours, ...(options.plugins ?? [])];
  // 1. The page's modules: a build that writes nothing, with the islands left out (and found).
  const islands = new Set<string>();
  const probe = await build({
    ...options,
    entryPoints: [entry],
    write: false,
    minify: false,
    metafile: true,
    plugins: plugins({
      name: 'docs-find-islands',
      setup(resolver) {
        resolver.onResolve({ filter: /.*/ }, async (args) => {
          if (args.kind !== 'dynamic-import' || args.pluginData === OWN) return undefined;
          const path = await resolveAsEsbuild(resolver, args);
          if (path) islands.add(path);
          return { path: args.path, external: true };
        });
      },
    }),
  });
  // Numbered by their order in the page's build, which does not change from run to run.
  const pageModules = new Map(Object.keys(probe.metafile.inputs).filter((input) => !input.endsWith('.css')).map((input, index) => [join(cwd, input), index]));

  // 2. The islands, reading what the page holds from `__docsHost`.
  const lent = new Set<number>();
  const islandBuild = await build({
    ...options,
    entryPoints: [...islands].sort(),
    entryNames: 'chunks/[name].[hash]',
    metafile: true,
    plugins: plugins({
      name: 'docs-borrow-from-page',
      setup(resolver) {
        resolver.onResolve({ filter: /.*/ }, async (args) => {
          if ((args.kind !== 'import-statement' && args.kind !== 'require-call') || args.pluginData === OWN) return undefined;
          const path = await resolveAsEsbuild(resolver, args);
          const index = path === undefined ? undefined : pageModules.get(path);
          if (index === undefined) return undefined;
          lent.add(index);
          return { path: String(index), namespace: 'docs-host' };
        });
        resolver.onLoad({ filter: /.*/, namespace: 'docs-host' }, (args) => ({ contents: `module.exports = globalThis.${HOST}[${args.path}];`, loader: 'js' }));
      },
    }),
  });
  const islandFiles = new Map<string, string>();
  for (const [file, output] of Object.entries(islandBuild.metafile.outputs)) {
    // A stylesheet of an island's own would be written and never loaded: the page's script imports every style.
    if (file.endsWith('.css')) throw new Error(`runtime: ${file} holds an island's styles; import them from a module of the page instead`);
    if (output.entryPoint) islandFiles.set(join(cwd, output.entryPoint), `./${posix.relative(relative(cwd, options.outdir), file)}`);
  }

  // 3. The page's script: first the modules it lends, on `__docsHost`, then the entry; `import()` of an island names its file.
  const lentPaths = [...pageModules].filter(([, index]) => lent.has(index));
  const host = `${lentPaths.map(([path], i) => `import * as m${i} from ${JSON.stringify(path)};`).join('\n')}\nglobalThis.${HOST} = {${lentPaths.map(([, index], i) => `${index}: m${i}`).join(', ')}};\n`;
  const page = await build({
    ...options,
    entryPoints: { app: 'docs:page' },
    splitting: false,
    metafile: true,
    plugins: plugins({
      name: 'docs-page',
      setup(resolver) {
        resolver.onResolve({ filter: /^docs:(page|host)$/ }, (args) => ({ path: args.path.slice('docs:'.length), namespace: 'docs' }));
        resolver.onLoad({ filter: /.*/, namespace: 'docs' }, (args) => ({
          // The host first: its modules are evaluated, and lent, before the entry's first line runs.
          contents: args.path === 'host' ? host : `import 'docs:host';\nimport ${JSON.stringify(entry)};\n`,
          resolveDir: cwd,
          loader: 'js',
        }));
        resolver.onResolve({ filter: /.*/ }, async (args) => {
          if (args.kind !== 'dynamic-import' || args.pluginData === OWN) return undefined;
          const path = await resolveAsEsbuild(resolver, args);
          const file = path === undefined ? undefined : islandFiles.get(path);
          return file ? { path: file, external: true } : undefined;
        });
      },
    }),
  });
  const outputs = Object.entries(page.metafile.outputs);
  const entryJs = outputs.find(([file]) => basename(file).startsWith('app.') && file.endsWith('.js'))![0];
  return { entryJs, entryCss: outputs.find(([file]) => file.endsWith('.css'))?.[0] };
}
