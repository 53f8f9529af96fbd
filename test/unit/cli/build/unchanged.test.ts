import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResolvedConfig } from '../../../../cli/build/config';
import { readContentFolder, type ContentFiles } from '../../../../cli/build/sources';
import { gitHead, inputFingerprint, presentFiles, stampOutputs, type TreeListing, type UnchangedRecord } from '../../../../cli/build/unchanged';
import { outputPaths, outputPathsAfter } from '../../../../cli/build/output-paths';
import { withinFolder } from '../../../../cli/util/fs';
import { publishInPlace } from '../../../../cli/build/publish';

describe('gitHead, read from the repository files', () => {
  const repo = (): { dir: string; git: (...args: string[]) => string } => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-head-'));
    const git = (...args: string[]): string => execFileSync('git', ['-c', 'user.name=Ada', '-c', 'user.email=ada@quad.example', '-c', 'init.defaultBranch=main', ...args], { cwd: dir, encoding: 'utf8' }).trim();
    git('init', '-q');
    mkdirSync(join(dir, 'content', 'wiki'), { recursive: true });
    writeFileSync(join(dir, 'content', 'wiki', 'index.md'), '# Wiki\n');
    git('add', '.');
    git('commit', '-qm', 'first');
    return { dir, git };
  };

  it('gives the commit git rev-parse gives, on a branch, after the refs are packed, detached and in a worktree', () => {
    const { dir, git } = repo();
    const content = join(dir, 'content', 'wiki');
    expect(gitHead(content)).toBe(git('rev-parse', 'HEAD'));
    git('commit', '-q', '--allow-empty', '-m', 'second');
    expect(gitHead(content)).toBe(git('rev-parse', 'HEAD'));
    git('pack-refs', '--all');
    expect(gitHead(content)).toBe(git('rev-parse', 'HEAD'));
    git('commit', '-q', '--allow-empty', '-m', 'third');
    expect(gitHead(content)).toBe(git('rev-parse', 'HEAD'));
    git('checkout', '-q', 'HEAD~1');
    expect(gitHead(content)).toBe(git('rev-parse', 'HEAD'));
    git('checkout', '-q', 'main');
    const tree = join(dir, '..', `${dir.split('/').pop()}-tree`);
    git('worktree', 'add', '-q', '-b', 'draft', tree);
    execFileSync('git', ['-c', 'user.name=Ada', '-c', 'user.email=ada@quad.example', 'commit', '-q', '--allow-empty', '-m', 'draft'], { cwd: tree });
    expect(gitHead(join(tree, 'content'))).toBe(execFileSync('git', ['rev-parse', 'HEAD'], { cwd: tree, encoding: 'utf8' }).trim());
    expect(gitHead(join(tree, 'content'))).not.toBe(gitHead(content));
  });

  it('gives none outside a repository and on a branch with no commit yet', () => {
    expect(gitHead(mkdtempSync(join(tmpdir(), 'docs-nogit-')))).toBe('none');
    const dir = mkdtempSync(join(tmpdir(), 'docs-empty-'));
    execFileSync('git', ['init', '-q'], { cwd: dir });
    expect(gitHead(dir)).toBe('none');
  });
});

const SECOND = 1_767_225_600;

describe('presentFiles: what the output holds, from the last build\'s list while the output is as it left it', () => {
  const output = () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-present-'));
    const files = ['index.html', 'manifest.json', 'guide/index.html', 'guide/install/index.html', 'assets/search/d-0.abc.json'];
    for (const file of files) {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      writeFileSync(join(dir, file), file);
    }
    const outputs = outputPaths(files, ['manifest.json']);
    // Whole seconds, so that a test can put a folder's mtime back exactly.
    for (const path of outputs) utimesSync(join(dir, path), SECOND, SECOND);
    const { digest, stamps: outputStamps } = stampOutputs(dir, outputs);
    if (!digest) throw new Error('a path of the output is missing');
    const last: UnchangedRecord = { outDir: dir, pages: 3, warnings: [], inputs: 'x', refFiles: [], outputs, outputDigest: digest, outputStamps };
    return { dir, files, digest, last };
  };

  it('takes the list, without listing the output, while every folder has the mtime the build left', () => {
    const { dir, files, digest, last } = output();
    expect([...presentFiles(dir, { files, digest }, last).files].sort()).toEqual([...files].sort());
    // A file slipped into a folder whose mtime is then put back is not seen: the list was taken, not the folder read.
    const folder = join(dir, 'guide');
    writeFileSync(join(folder, 'unseen.txt'), '');
    expect(statSync(folder).mtimeMs).not.toBe(SECOND * 1000);
    utimesSync(folder, SECOND, SECOND);
    expect(presentFiles(dir, { files, digest }, last).files.has('guide/unseen.txt')).toBe(false);
  });

  it('lists the output when a file was added or removed since, or when the list is not that build\'s', () => {
    const { dir, files, digest, last } = output();
    rmSync(join(dir, 'guide/install/index.html'));
    writeFileSync(join(dir, 'assets/search/stray.json'), '{}');
    const listed = [...presentFiles(dir, { files, digest }, last).files].sort();
    expect(listed).toContain('assets/search/stray.json');
    expect(listed).not.toContain('guide/install/index.html');

    const fresh = output();
    const other = { files: [...fresh.files, 'gone.html'], digest: 'another build' };
    expect(presentFiles(fresh.dir, other, fresh.last).files.has('gone.html')).toBe(false);
    expect(presentFiles(fresh.dir, { files: other.files }, fresh.last).files.has('gone.html')).toBe(false);
    expect(presentFiles(fresh.dir, { ...other, digest: fresh.digest }, undefined).files.has('gone.html')).toBe(false);
    expect(presentFiles(fresh.dir, { ...other, digest: fresh.digest }, fresh.last).files.has('gone.html')).toBe(true);
    // A file edited in place, no folder changed: its own stats are in the fingerprint, so the output
    // is listed, and the file, not as the build left it, counts as absent (the build writes it again).
    writeFileSync(join(fresh.dir, 'guide/index.html'), 'edited in place: no folder changes');
    const after = presentFiles(fresh.dir, { ...other, digest: fresh.digest }, fresh.last);
    expect(after.files.has('gone.html')).toBe(false);
    expect(after.files.has('guide/index.html')).toBe(false);
    expect(after.files.has('guide/install/index.html')).toBe(true);
    // What is as the build left it is known by its stamp (the end of the build takes it instead of a stat); the edited file is not.
    expect(after.kept.has('guide/index.html')).toBe(false);
    expect(after.kept.get('guide/install/index.html')).toBe(fresh.last.outputStamps![fresh.last.outputs.indexOf('guide/install/index.html')]);
    expect(after.kept.has('guide')).toBe(true);
  });

  it('takes the stamps it is given for paths the build left alone, and states the others', () => {
    const { dir, last } = output();
    const stamps = new Map(last.outputs.map((path, i) => [path, last.outputStamps![i]!]));
    expect(stampOutputs(dir, last.outputs, stamps).digest).toBe(last.outputDigest);
    // A page written again by the build: its new stats count, not the kept ones.
    writeFileSync(join(dir, 'guide/index.html'), 'written again, longer than before');
    stamps.delete('guide/index.html');
    const after = stampOutputs(dir, last.outputs, stamps);
    expect(after.digest).not.toBe(last.outputDigest);
    expect(after.digest).toBe(stampOutputs(dir, last.outputs).digest);
    expect(after.stamps[last.outputs.indexOf('guide/index.html')]).toMatch(/^33:/);
    // A kept stamp is taken as it is: the file is not stated again.
    stamps.set('index.html', 'as the start of the build saw it');
    expect(stampOutputs(dir, last.outputs, stamps).stamps[last.outputs.indexOf('index.html')]).toBe('as the start of the build saw it');
    // A path missing: no fingerprint, and its stamp is empty.
    rmSync(join(dir, 'manifest.json'));
    const missing = stampOutputs(dir, last.outputs);
    expect(missing.digest).toBeUndefined();
    expect(missing.stamps[last.outputs.indexOf('manifest.json')]).toBe('');
  });
});

describe('the output paths a build records', () => {
  it('are what outputPaths lists, when made from the last build\'s paths and the files that changed', () => {
    // A small deterministic generator: the same cases on every run.
    let seed = 7;
    const random = (below: number): number => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % below;
    const names = ['a', 'b', 'a-b', 'a.b', 'a b', 'é', 'index.html', 'Z', 'a0'];
    const randomFile = (): string => Array.from({ length: 1 + random(4) }, () => names[random(names.length)]).join('/') + `.${random(3)}`;
    for (let round = 0; round < 300; round++) {
      const before = new Set(Array.from({ length: 20 + random(200) }, randomFile));
      const files = new Set(before);
      // A few files go (the last of a folder among them, at times) and a few come (in new folders, at times).
      for (const file of [...before]) if (random(40) === 0) files.delete(file);
      for (let i = random(4); i > 0; i--) files.add(randomFile());
      const paths = outputPaths(before, []);
      expect(outputPathsAfter(paths, [...before], files)).toEqual(outputPaths(files, []));
    }
    // The page of a one-page edit: its data chunk renamed, the last file of its folder removed, another added deeper.
    const before = ['index.html', 'assets/pages/a.1111.js', 'assets/pages/b.2222.js', 'guide/index.html', 'old/deep/only.html'];
    const files = new Set(['index.html', 'assets/pages/a.3333.js', 'assets/pages/b.2222.js', 'guide/index.html', 'guide/new/deeper/page.html']);
    const after = outputPathsAfter(outputPaths(before, []), before, files);
    expect(after).toEqual(outputPaths(files, []));
    expect(after).toEqual(['', 'assets', 'assets/pages', 'assets/pages/a.3333.js', 'assets/pages/b.2222.js', 'guide', 'guide/index.html', 'guide/new', 'guide/new/deeper', 'guide/new/deeper/page.html', 'index.html']);
  });

  it('have one fingerprint, over every path and its stamp in order, however long the list', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-stamps-'));
    // Long enough to be hashed in several parts (some 64 KB at a time).
    const files = Array.from({ length: 2_000 }, (_, i) => `page-${String(i).padStart(4, '0')}-with-a-long-name-to-fill-the-text.html`);
    for (const file of files) writeFileSync(join(dir, file), file);
    const paths = outputPaths(files, []);
    const { digest, stamps } = stampOutputs(dir, paths);
    const expected = createHash('sha256');
    paths.forEach((path, i) => expected.update(`${path}\0${stamps[i]}\n`));
    expect(paths.join('').length).toBeGreaterThan(65_536);
    expect(digest).toBe(expected.digest('hex'));
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('publishInPlace names what it changed', () => {
  it('gives the files moved in and removed, every folder above them and the output itself, nothing else', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-publish-'));
    const out = join(dir, 'dist');
    const staging = join(dir, 'staging');
    for (const file of ['index.html', 'guide/index.html', 'guide/old/index.html', 'api/index.html']) {
      mkdirSync(join(out, file, '..'), { recursive: true });
      writeFileSync(join(out, file), file);
    }
    mkdirSync(join(staging, 'guide/new'), { recursive: true });
    writeFileSync(join(staging, 'guide/new/index.html'), 'new');
    const touched = publishInPlace(staging, out, ['guide/old/index.html']);
    expect([...touched].sort()).toEqual(['', 'guide', 'guide/new', 'guide/new/index.html', 'guide/old', 'guide/old/index.html']);
    expect(statSync(join(out, 'guide/new/index.html')).size).toBe(3);
  });
});

describe('withinFolder: synchronous work from another working folder', () => {
  it('runs there and comes back, also when the work throws; a folder it cannot enter runs it where it is', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-within-'));
    writeFileSync(join(dir, 'here.txt'), 'here');
    const before = process.cwd();
    expect(withinFolder(dir, (inside) => inside && statSync('here.txt').size)).toBe(4);
    expect(process.cwd()).toBe(before);
    expect(() => withinFolder(dir, () => statSync('not-here.txt'))).toThrow(/ENOENT/);
    expect(process.cwd()).toBe(before);
    expect(withinFolder(join(dir, 'missing'), (inside) => inside)).toBe(false);
    expect(process.cwd()).toBe(before);
  });
});

describe('the content walk takes what the input fingerprint saw', () => {
  const site = (): { root: string; config: ResolvedConfig } => {
    const root = mkdtempSync(join(tmpdir(), 'docs-listing-'));
    const contentDir = join(root, 'content');
    writeFileSync(join(root, 'site.config.ts'), 'export default {};\n');
    for (const [file, text] of Object.entries({ 'content/index.md': '# Home\n', 'content/wiki/index.md': '# Wiki\n', 'content/wiki/deep/setup.md': '# Setup\n', 'content/wiki/_category_.json': '{"label":"Wiki"}', 'shared/glossary.md': '# Glossary\n' })) {
      mkdirSync(join(root, file, '..'), { recursive: true });
      writeFileSync(join(root, file), text);
    }
    // Links are looked at by the walk itself, never taken from the listing.
    symlinkSync(join(root, 'shared'), join(contentDir, 'linked'));
    symlinkSync(join(contentDir, 'index.md'), join(contentDir, 'home-link.md'));
    return { root, config: { contentDir, openapi: [] } as unknown as ResolvedConfig };
  };
  const summary = (files: ContentFiles) => ({ markdown: files.markdown.map((file) => [file.rel, file.text]), categories: files.categories.map((file) => [file.rel, file.text]), modified: [...(files.modified ?? [])] });

  it('reads the same files with the listing as without, links included, and the tree as it was when the fingerprint was taken', () => {
    const { root, config } = site();
    const listing: TreeListing = { folders: new Map(), files: new Map() };
    const before = inputFingerprint(root, config, join(root, 'dist'), listing);
    expect([...listing.folders.keys()].map((folder) => folder.slice(config.contentDir.length))).toEqual(['', '/wiki', '/wiki/deep']);
    expect(listing.files.size).toBe(4);
    const plain = readContentFolder(config.contentDir, 'content/');
    expect(summary(readContentFolder(config.contentDir, 'content/', undefined, undefined, listing))).toEqual(summary(plain));
    expect(plain.markdown.map((file) => file.rel)).toEqual(['home-link.md', 'index.md', 'linked/glossary.md', 'wiki/deep/setup.md', 'wiki/index.md']);
    // A page saved after the fingerprint: this build reads the tree the fingerprint saw, and the next
    // build's fingerprint differs, so that build reads it.
    writeFileSync(join(config.contentDir, 'wiki', 'new.md'), '# New\n');
    expect(readContentFolder(config.contentDir, 'content/', undefined, undefined, listing).markdown.map((file) => file.rel)).not.toContain('wiki/new.md');
    expect(readContentFolder(config.contentDir, 'content/').markdown.map((file) => file.rel)).toContain('wiki/new.md');
    expect(inputFingerprint(root, config, join(root, 'dist'))).not.toBe(before);
  });
});
