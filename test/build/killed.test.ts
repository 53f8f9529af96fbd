/**
 * A build killed (SIGKILL: no clean-up runs) at any point must leave nothing the next build trusts
 * wrongly: the next complete build's output is byte-identical to a clean build of the same sources.
 * The kill points are spread over the whole build (content, rendering, publishing, writing the cache)
 * and drawn from a seeded sequence, so a failure names a delay that reproduces it.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, REPO, runDocs, snapshotTree } from '../support/site';

/** Pages added to the fixture, so that a build lasts long enough to be killed in each of its stages. */
const EXTRA_PAGES = 150;

/** The keys of the records of a pack (cli/build/packs.ts: magic, length, key length, key, value). */
function packKeys(file: string): string[] {
  const bytes = readFileSync(file);
  const keys: string[] = [];
  for (let at = 0; at + 10 <= bytes.length; at += bytes.readUInt32BE(at + 4)) keys.push(bytes.toString('utf8', at + 10, at + 10 + bytes.readUInt16BE(at + 8)));
  return keys;
}

/** A site: the basic fixture and `EXTRA_PAGES` pages with code, links and headings. */
function largerSite(): string {
  const site = copyFixture('basic');
  const dir = join(site, 'content/guide/generated');
  mkdirSync(dir);
  for (let i = 0; i < EXTRA_PAGES; i++) {
    const body = [
      `---\ntitle: Runbook ${i}\n---\n`,
      `## Restarting service ${i}\n\nStop the worker, clear its queue and start it again. See [the FAQ](../faq.md) and [the next runbook](./page-${(i + 1) % EXTRA_PAGES}.md).\n`,
      '```ruby\n' + `class Worker${i}\n  def restart\n    stop && clear_queue && start\n  end\nend\n` + '```\n',
      `## Checking service ${i}\n\n| check | expected |\n| --- | --- |\n| health | 200 |\n| queue | ${i} jobs |\n`,
    ].join('\n');
    writeFileSync(join(dir, `page-${i}.md`), body);
  }
  return site;
}

/** A deterministic sequence of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Starts `docs build` in `site` and kills it after `delay` ms; resolves with the signal that ended it (null when it finished first). */
function buildKilledAfter(site: string, delay: number): Promise<NodeJS.Signals | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(REPO, 'bin', 'docs.mjs'), 'build'], { cwd: site, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), delay);
    child.on('exit', (_, signal) => {
      clearTimeout(timer);
      resolve(signal);
    });
  });
}

/** The files whose bytes differ between two snapshots, or that only one of them has (empty when the trees are equal). */
function differences(actual: Map<string, string>, expected: Map<string, string>): string[] {
  const names = new Set([...actual.keys(), ...expected.keys()]);
  return [...names].filter((name) => actual.get(name) !== expected.get(name)).sort().map((name) => (!actual.has(name) ? `missing ${name}` : !expected.has(name) ? `extra ${name}` : `differs ${name}`));
}

/** Milliseconds a complete `docs build` of `site` takes. */
function timedBuild(site: string): number {
  const started = performance.now();
  const run = runDocs(['build'], { cwd: site });
  expect(run.code, run.stderr).toBe(0);
  return performance.now() - started;
}

const PAGE = 'content/guide/faq.md';
/** The edited page's versions, each with a fixed modification time of the edited page, so its "last updated" date is the same in every build of that version. */
const VERSIONS = [
  { text: (original: string) => original, mtime: new Date('2025-03-01T10:00:00Z') },
  // The body and the sidebar label: the label is in the HTML of every page of the sidebar, not in their data chunks.
  { text: (original: string) => original.replace('Because the backend', 'Because our backend').replace('sidebar_label: FAQ', 'sidebar_label: Questions'), mtime: new Date('2025-04-01T10:00:00Z') },
];

/** A larger site, a way to switch the edited page between its versions, and what a clean build writes for each. */
function killableSite(): { site: string; dist: string; cache: string; setVersion: (version: number) => void; clean: Map<string, string>[] } {
  const site = largerSite();
  const original = readFileSync(join(site, PAGE), 'utf8');
  const setVersion = (version: number): void => {
    writeFileSync(join(site, PAGE), VERSIONS[version]!.text(original));
    utimesSync(join(site, PAGE), VERSIONS[version]!.mtime, VERSIONS[version]!.mtime);
  };
  // What a clean build (no cache, no earlier output) writes for each version of the page.
  const clean = VERSIONS.map((_, version) => {
    setVersion(version);
    const out = join(site, '..', `clean-${version}`);
    const run = runDocs(['build', '--no-cache', '--out', out], { cwd: site });
    expect(run.code, run.stderr).toBe(0);
    return snapshotTree(out);
  });
  expect(clean[0]!.size).toBeGreaterThan(2 * EXTRA_PAGES);
  return { site, dist: join(site, 'dist'), cache: join(site, 'node_modules'), setVersion, clean };
}

/** The larger site and its clean builds, made once for the file: each test starts from its own state of the output and cache. */
let made: ReturnType<typeof killableSite> | undefined;
const sharedSite = (): ReturnType<typeof killableSite> => (made ??= killableSite());

describe('a killed build', () => {
  it('leaves nothing the next build trusts wrongly: it builds output byte-identical to a clean build', async () => {
    const { site, dist, cache, setVersion, clean } = sharedSite();
    const random = seeded(17);
    const signals: (NodeJS.Signals | null)[] = [];

    // Cold builds (no cache, no output) killed at points spread over their whole length.
    setVersion(0);
    const cold = timedBuild(site);
    for (let k = 0; k < 4; k++) {
      rmSync(dist, { recursive: true, force: true });
      rmSync(cache, { recursive: true, force: true });
      const delay = Math.round(cold * ((k + random()) / 4));
      signals.push(await buildKilledAfter(site, delay));
      expect(runDocs(['build'], { cwd: site }).code, `after a cold build killed at ${delay} ms`).toBe(0);
      expect(differences(snapshotTree(dist), clean[0]!), `after a cold build killed at ${delay} ms`).toEqual([]);
    }

    // Rebuilds after an edit (which update the output in place) killed at points spread over their
    // length; then the next build runs with the edit kept or undone, either of which must come out right.
    let version = 0;
    setVersion(1);
    const rebuild = timedBuild(site);
    version = 1;
    for (let k = 0; k < 6; k++) {
      const edited = 1 - version;
      setVersion(edited);
      const delay = Math.round(rebuild * ((k + random()) / 6));
      signals.push(await buildKilledAfter(site, delay));
      version = random() < 0.5 ? edited : version;
      setVersion(version);
      const run = runDocs(['build'], { cwd: site });
      expect(run.code, `after a rebuild killed at ${delay} ms: ${run.stderr}`).toBe(0);
      expect(differences(snapshotTree(dist), clean[version]!), `after a rebuild killed at ${delay} ms, built with version ${version}`).toEqual([]);
    }
    // Most builds were killed, not finished before the signal.
    expect(signals.filter((signal) => signal === 'SIGKILL').length).toBeGreaterThanOrEqual(7);
  }, 240_000);

  it('comes out right after a crash at each moment that matters: before, while and after the output is replaced or updated', () => {
    const { site, dist, cache, setVersion, clean } = sharedSite();
    const crashAt = (point: string): void => {
      const run = runDocs(['build'], { cwd: site, env: { DOCS_TEST_CRASH_AT: point } });
      expect(run.code, `the build should have been killed at ${point}`).toBeNull();
    };
    const buildAndCompare = (version: number, what: string): void => {
      setVersion(version);
      const run = runDocs(['build'], { cwd: site });
      expect(run.code, run.stderr).toBe(0);
      expect(differences(snapshotTree(dist), clean[version]!), what).toEqual([]);
    };
    for (const point of ['publish', 'published']) {
      // A cold build: the whole output is staged and swapped in.
      rmSync(dist, { recursive: true, force: true });
      rmSync(cache, { recursive: true, force: true });
      setVersion(0);
      crashAt(point);
      buildAndCompare(0, `after a cold build crashed at ${point}`);
    }
    for (const point of ['publish', 'mid-publish', 'published']) {
      // A rebuild after an edit, updating the output in place, crashes; then the edit is undone, the
      // case where an output record left describing the old output would be believed wrongly.
      buildAndCompare(0, 'before the edit');
      setVersion(1);
      crashAt(point);
      buildAndCompare(0, `after a rebuild crashed at ${point}, with the edit undone`);
      setVersion(1);
      crashAt(point);
      buildAndCompare(1, `after a rebuild crashed at ${point}, with the edit kept`);
    }
  }, 240_000);

  it('never imports a compiled config a killed build cut short: it is compiled again', () => {
    const site = copyFixture('basic');
    expect(runDocs(['build', '--root', site]).code).toBe(0);
    // What a build killed between creating the compiled config and writing it (before the config
    // was written whole) left: the file under its name, empty, and no record to check it by.
    const cache = join(site, 'node_modules/.cache/docs/config');
    const compiled = readdirSync(cache).find((name) => /^site\.config\.[0-9a-f]+\.mjs$/.test(name))!;
    writeFileSync(join(cache, compiled), '');
    rmSync(join(cache, 'last.json'));
    const run = runDocs(['build', '--root', site]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(readFileSync(join(cache, compiled), 'utf8')).toContain('Docs');
    // Written whole: nothing left beside it.
    expect(readdirSync(cache).sort()).toEqual(['last.json', compiled]);
  });

  it('says so when files of the cache went between two builds, and the next build renders the pages they held again', () => {
    const site = copyFixture('basic');
    expect(runDocs(['build'], { cwd: site }).code).toBe(0);
    const clean = snapshotTree(join(site, 'dist'));
    // The packs the render threads wrote (the pages' stored text) removed by hand, the main thread's
    // (the docs and results that name that text) left, then one page edited: the index must remake the
    // chunk of excerpts that page shares with the others, whose text is now gone.
    const packs = join(site, 'node_modules/.cache/docs/packs');
    const rendered = readdirSync(packs).filter((name) => !packKeys(join(packs, name)).includes('guide/faq.md'));
    expect(rendered.length).toBeGreaterThan(0);
    for (const name of rendered) rmSync(join(packs, name));
    const page = join(site, 'content/guide/faq.md');
    const text = readFileSync(page, 'utf8');
    writeFileSync(page, `${text}\nOne more answer about kwijting.\n`);
    const failed = runDocs(['build'], { cwd: site });
    expect(failed.code).toBe(2);
    expect(failed.stderr).toMatch(/^error node_modules\/\.cache\/docs: has lost the search text of \d+ pages \(\/\S+ first\): was the cache, or a file of it, removed while a build ran\?\n  fix: build again: those pages will be rendered again/m);
    // Nothing of it reached the output.
    expect(differences(snapshotTree(join(site, 'dist')), clean)).toEqual([]);
    const again = runDocs(['build'], { cwd: site });
    expect(again.code).toBe(0);
    // The index holds the edit and every other page's text: the same as a build without any cache.
    const out = join(site, 'fresh');
    expect(runDocs(['build', '--no-cache', '--out', out], { cwd: site }).code).toBe(0);
    const search = (tree: Map<string, string>): Map<string, string> => new Map([...tree].filter(([name]) => name.startsWith('assets/search/')));
    expect(differences(search(snapshotTree(join(site, 'dist'))), search(snapshotTree(out)))).toEqual([]);
  });

  it('renders every page again when all the packs went between two builds, and writes what a build from nothing writes', () => {
    const site = copyFixture('basic');
    expect(runDocs(['build'], { cwd: site }).code).toBe(0);
    // Every record gone: the pages' text, and the docs and results that named it.
    rmSync(join(site, 'node_modules/.cache/docs/packs'), { recursive: true });
    const page = join(site, 'content/guide/faq.md');
    writeFileSync(page, `${readFileSync(page, 'utf8')}\nOne more answer about kwijting.\n`);
    const again = runDocs(['build', '--json'], { cwd: site });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout.trim().split('\n').pop()!)).toMatchObject({ ok: true, pages: 6, cachedPages: 0 });
    const out = join(site, 'fresh');
    expect(runDocs(['build', '--no-cache', '--out', out], { cwd: site }).code).toBe(0);
    expect(differences(snapshotTree(join(site, 'dist')), snapshotTree(out))).toEqual([]);
  });
});
