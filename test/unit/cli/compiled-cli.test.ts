/**
 * What the compiled CLI carries of React's server renderer (bin/ensure-built.mjs `serverRenderer`):
 * every thread of every build parses its files before its first page, and `react-dom/server` would
 * bring four renderers (streaming and legacy, production and development) where one is used.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FROM_MARKDOWN_CONTEXT, FROM_MARKDOWN_ONE_CONTEXT, PARSER_HEADERS_CHECK } from '../../../bin/ensure-built.mjs';
import { copyFixture, REPO } from '../../support/site';

/** The compiled CLI's files (the global setup compiled it), by name. */
function compiled(): Map<string, string> {
  const dir = join(REPO, 'node_modules/.cache/docs/cli');
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && (entry.name.endsWith('.mjs') || entry.name.endsWith('.cjs'))) files.set(join(entry.parentPath, entry.name), readFileSync(join(entry.parentPath, entry.name), 'utf8'));
  }
  return files;
}

describe('the compiled CLI', () => {
  it("carries React's legacy server renderer in its production build only, in the render worker's file", () => {
    const files = compiled();
    const holding = (module: string): string[] => [...files].filter(([, text]) => text.includes(`// node_modules/react-dom/cjs/${module}`)).map(([name]) => name);
    expect(holding('react-dom-server-legacy.node.production.js').map((name) => name.endsWith(join('worker', 'worker.cjs')))).toContain(true);
    for (const unused of ['react-dom-server-legacy.node.development.js', 'react-dom-server.node.production.js', 'react-dom-server.node.development.js']) expect(holding(unused), unused).toEqual([]);
    // No development build of React itself either: the compiled code is production's.
    expect([...files].filter(([, text]) => text.includes('// node_modules/react/cjs/react.development.js')).map(([name]) => name)).toEqual([]);
  });

  it('runs the CLI and the render worker each from one CommonJS file, whose dynamic imports all go through the code cache\'s importer', () => {
    for (const [file, diagramDeps] of [
      ['main.cjs', './worker/diagram-deps.mjs'],
      ['worker/worker.cjs', './diagram-deps.mjs'],
    ] as const) {
      const code = readFileSync(join(REPO, 'node_modules/.cache/docs/cli', file), 'utf8');
      // A `vm` script has no import() of its own (cli/util/code-cache.ts): not one is left.
      expect(code.match(/(?<![\w$.])import\(/g) ?? [], file).toEqual([]);
      expect(code, file).toContain(`__docsImport("${diagramDeps}")`);
      expect(code, file).toContain('__docsImport("@shikijs/langs/ruby")');
      // Mermaid, loaded by a thread's first diagram only, and the browser's own islands are not in it.
      expect(code, file).not.toContain('// node_modules/mermaid/');
      expect(code, file).not.toContain('// runtime/islands/mermaid.ts');
    }
    // The site config, compiled to a file of its own, is imported by its URL through the same function.
    expect(readFileSync(join(REPO, 'node_modules/.cache/docs/cli/main.cjs'), 'utf8')).toMatch(/__docsImport\(\(0, import_node_url\d*\.pathToFileURL\)\(compiled\)\.href\)/);
    expect(existsSync(join(REPO, 'node_modules/.cache/docs/cli/worker/diagram-deps.mjs'))).toBe(true);
  });

  it('parses markdown with one compile context a document, into the trees the published mdast-util-from-markdown makes', async () => {
    const published = readFileSync(join(REPO, 'node_modules/mdast-util-from-markdown/lib/index.js'), 'utf8');
    // The package as published copies its context for every token (bin/ensure-built.mjs `oneCompileContext`): a new version that reads otherwise fails here.
    expect(published).toContain(FROM_MARKDOWN_CONTEXT);
    for (const file of ['main.cjs', 'worker/worker.cjs']) {
      const code = readFileSync(join(REPO, 'node_modules/.cache/docs/cli', file), 'utf8');
      expect(code, file).toMatch(/tokenContext\.sliceSerialize = events\[\w+\]\[2\]\.sliceSerialize;/);
      expect(code, file).not.toMatch(/sliceSerialize: events\[\w+\]\[2\]\.sliceSerialize/);
    }
    // The patched module beside the published one: every page of the portal, with GFM and directives, gives the same tree.
    const dir = join(REPO, 'test/.tmp/from-markdown');
    mkdirSync(dir, { recursive: true });
    const patchedFile = join(dir, 'one-context.mjs');
    writeFileSync(patchedFile, published.replace(FROM_MARKDOWN_CONTEXT, FROM_MARKDOWN_ONE_CONTEXT));
    const patched = (await import(pathToFileURL(patchedFile).href)) as typeof import('mdast-util-from-markdown');
    const { fromMarkdown } = await import('mdast-util-from-markdown');
    const { gfm } = await import('micromark-extension-gfm');
    const { gfmFromMarkdown } = await import('mdast-util-gfm');
    const { directive } = await import('micromark-extension-directive');
    const { directiveFromMarkdown } = await import('mdast-util-directive');
    const options = { extensions: [gfm(), directive()], mdastExtensions: [gfmFromMarkdown(), directiveFromMarkdown()] };
    const pages = readdirSync(join(REPO, 'content'), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.md'));
    expect(pages.length).toBeGreaterThan(100);
    for (const page of pages) {
      const text = readFileSync(join(REPO, 'content', page), 'utf8');
      expect(JSON.stringify(patched.fromMarkdown(text, options)), page).toBe(JSON.stringify(fromMarkdown(text, options)));
    }
  });

  it("asks of the OpenAPI parser's options whether they are fetch Headers without loading Node's fetch", () => {
    const main = readFileSync(join(REPO, 'node_modules/.cache/docs/cli/main.cjs'), 'utf8');
    // The parser as published reads the global first (bin/ensure-built.mjs `quietHeadersCheck`): a new version that reads otherwise fails here.
    expect(readFileSync(join(REPO, 'node_modules/@readme/openapi-parser/dist/index.js'), 'utf8')).toContain(PARSER_HEADERS_CHECK);
    expect(main).not.toContain(PARSER_HEADERS_CHECK);
    expect(main).toContain('!(val.constructor?.name === "Headers" && typeof Headers !== "undefined" && val instanceof Headers)');
    // A build that loads specs, in a process of its own: Node's fetch is never loaded.
    const site = copyFixture('openapi');
    const script = `import { loadCli } from ${JSON.stringify(pathToFileURL(join(REPO, 'bin/ensure-built.mjs')).href)};
const code = await (await loadCli()).main(['build', '--root', ${JSON.stringify(site)}, '--out', ${JSON.stringify(join(site, 'dist'))}]);
console.log(JSON.stringify({ code, fetchLoaded: process.moduleLoadList.some((name) => name.includes('undici')) }));`;
    const file = join(site, 'build-and-tell.mjs');
    writeFileSync(file, script);
    const run = spawnSync(process.execPath, [file], { encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' }, timeout: 120_000 });
    expect(JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}'), run.stderr).toEqual({ code: 0, fetchLoaded: false });
  });
});
