/**
 * Output reuse: a page whose every input is unchanged since the previous build is hard-linked from the
 * previous output instead of rendered and written again (a link costs a tenth of a write). The
 * previous build's keys live in `<cache>/outputs.json`.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, linkSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDir } from '../util/fs';
import type { PageResult } from './page-job';

/** What the previous build wrote for one route. */
export interface PageOutput {
  /** Hash of every input of the page's bytes. */
  key: string;
  result: PageResult;
}

/** `<cache>/outputs.json`. */
export interface OutputState {
  /** The output folder the state describes; reuse only applies to the same folder. */
  outDir: string;
  pages: Record<string, PageOutput>;
}

let generatorHash: string | undefined;

/**
 * A hash of the generator's own code (the compiled CLI, or the sources when run from them), so that
 * a new version of `docs` never reuses output or cache entries of an older one.
 */
export function generatorVersion(): string {
  if (generatorHash) return generatorHash;
  const hasher = createHash('sha256');
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(m?js|tsx?)$/.test(name)) hasher.update(name).update(readFileSync(path));
    }
  };
  walk(dirname(fileURLToPath(import.meta.url)));
  generatorHash = hasher.digest('hex');
  return generatorHash;
}

/** Reads the previous build's state, or undefined when there is none or it is unreadable. */
export function readOutputState(cacheDir: string): OutputState | undefined {
  try {
    return JSON.parse(readFileSync(join(cacheDir, 'outputs.json'), 'utf8')) as OutputState;
  } catch {
    return undefined;
  }
}

/** Writes the state of a successful build. */
export function writeOutputState(cacheDir: string, state: OutputState): void {
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(join(cacheDir, 'outputs.json'), JSON.stringify(state));
}

/**
 * Links every file of a page from the previous output into the staging folder; false (and nothing
 * usable) when one is missing, so the caller renders the page instead.
 */
export function reuseFiles(previousDir: string, stagingDir: string, files: string[], createdDirs: Set<string>): boolean {
  for (const file of files) {
    const source = join(previousDir, file);
    const target = join(stagingDir, file);
    if (existsSync(target)) continue; // an image shared with a page already linked
    if (!existsSync(source)) return false;
    ensureDir(dirname(target), createdDirs);
    try {
      linkSync(source, target);
    } catch {
      copyFileSync(source, target); // filesystems without hard links
    }
  }
  return true;
}
