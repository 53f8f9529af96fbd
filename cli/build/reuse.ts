/**
 * What a build keeps for the next one, under `node_modules/.cache/docs`:
 * - output reuse: a page whose every input is unchanged since the previous build is hard-linked from
 *   the previous output instead of rendered and written again (a link costs a tenth of a write); the
 *   previous build's keys live in `outputs.json`;
 * - the markdown cache: each page's markdown stage result (body HTML, TOC, ids, links), by a hash of
 *   its markdown and the markdown settings, so a page whose layout changed (config, template,
 *   runtime, sidebar) is laid out again without parsing and highlighting. It is one file,
 *   `markdown.json`, written once per build by the main thread: a file per page cost a tenth of a
 *   cold build in file creation alone, and the one file holds exactly the current pages' entries.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, linkSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDir } from '../util/fs';
import { hash } from '../util/hash';
import type { MarkdownOptions } from './markdown/index';
import type { MarkdownEntry, PageJob, PageResult } from './page-job';

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
  /**
   * The search index the build wrote: its files (below the output folder) and the text of its entry
   * point. The index is made from the pages alone, so when every page is reused it is this one, and a
   * no-change build checks it on disk instead of making it again (seconds at 10,000 pages).
   */
  search?: { files: string[]; entry: string };
}

let generatorHash: string | undefined;

/**
 * A hash of the generator's own code (the compiled CLI, or the sources when run from them), so that
 * a new version of `docs` never reuses output or cache entries of an older one. The compiled CLI
 * carries it in its `stamp.json` (bin/ensure-built.mjs hashes the code once, when it compiles it).
 */
export function generatorVersion(): string {
  if (generatorHash) return generatorHash;
  const here = dirname(fileURLToPath(import.meta.url));
  try {
    const stamp = JSON.parse(readFileSync(join(here, 'stamp.json'), 'utf8')) as { version?: string };
    if (stamp.version) return (generatorHash = stamp.version);
  } catch {
    // Running from the sources: hash them below.
  }
  const hasher = createHash('sha256');
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(m?js|tsx?)$/.test(name)) hasher.update(name).update(readFileSync(path));
    }
  };
  walk(here);
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

/**
 * Writes `value` as JSON to `file` in one rename, so a reader never sees half a file. A cache that
 * cannot be written (a read-only site, a full disk) costs the next build its speed, not this build.
 */
function writeJsonAtomically(file: string, value: unknown): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(temporary, JSON.stringify(value));
    renameSync(temporary, file);
  } catch {
    rmSync(temporary, { force: true });
  }
}

/** Writes the state of a successful build. */
export function writeOutputState(cacheDir: string, state: OutputState): void {
  writeJsonAtomically(join(cacheDir, 'outputs.json'), state);
}

/** Markdown cache entries by key. */
export type MarkdownCache = Record<string, MarkdownEntry>;

/** The markdown key of each job: its file, its markdown, the markdown settings and the generator. */
export function markdownKeys(markdown: MarkdownOptions, jobs: PageJob[]): string[] {
  const { routeOfFile, ...settings } = markdown;
  const salt = hash(generatorVersion() + JSON.stringify(settings) + JSON.stringify(routeOfFile));
  return jobs.map((job) => hash(`${salt}\0${job.rel}\0${job.body}`));
}

/** The markdown cache of the previous build; empty when there is none or it is unreadable. */
export function readMarkdownCache(cacheDir: string): MarkdownCache {
  try {
    return JSON.parse(readFileSync(join(cacheDir, 'markdown.json'), 'utf8')) as MarkdownCache;
  } catch {
    return {};
  }
}

/** Writes the markdown cache of a successful build; drops the file-per-page cache of earlier versions. */
export function writeMarkdownCache(cacheDir: string, cache: MarkdownCache): void {
  writeJsonAtomically(join(cacheDir, 'markdown.json'), cache);
  const legacy = join(cacheDir, 'pages');
  if (existsSync(legacy)) rmSync(legacy, { recursive: true, force: true });
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
