// Compiles cli/ (and the runtime components it server-renders) for Node with esbuild, when stale.
import { mkdirSync, readdirSync, statSync, readFileSync, writeFileSync, renameSync, rmSync } from 'node:fs';
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
  for (const dir of ['cli', 'runtime', 'bin']) walk(join(root, dir));
  return newest;
}

/** Returns the file URL of the compiled CLI entry, compiling first when a source changed. */
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
    await build({
      entryPoints: { main: join(root, 'cli/main.ts'), worker: join(root, 'cli/build/worker.ts') },
      outdir: staging,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      jsx: 'automatic',
      // Components import their stylesheets for the browser bundle; server rendering needs none.
      loader: { '.css': 'empty' },
      sourcemap: 'linked',
      outExtension: { '.js': '.mjs' },
      logLevel: 'error',
    });
    writeFileSync(join(staging, 'stamp.json'), JSON.stringify({ newest }));
    mkdirSync(dirname(outDir), { recursive: true });
    rmSync(outDir, { recursive: true, force: true });
    renameSync(staging, outDir);
  }
  return pathToFileURL(join(outDir, 'main.mjs')).href;
}
