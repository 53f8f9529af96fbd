import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResolvedConfig } from '../../../../cli/build/config';
import { readContentFolder, type ContentFiles } from '../../../../cli/build/sources';
import { gitHead, inputFingerprint, outputFingerprint, outputPaths, presentFiles, type TreeListing, type UnchangedRecord } from '../../../../cli/build/unchanged';

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
    const outputStamps: string[] = [];
    const digest = outputFingerprint(dir, outputs, outputStamps)!;
    const last: UnchangedRecord = { outDir: dir, pages: 3, warnings: [], inputs: 'x', refFiles: [], outputs, outputDigest: digest, outputStamps };
    return { dir, files, digest, last };
  };

  it('takes the list, without listing the output, while every folder has the mtime the build left', () => {
    const { dir, files, digest, last } = output();
    expect([...presentFiles(dir, { files, digest }, last)].sort()).toEqual([...files].sort());
    // A file slipped into a folder whose mtime is then put back is not seen: the list was taken, not the folder read.
    const folder = join(dir, 'guide');
    writeFileSync(join(folder, 'unseen.txt'), '');
    expect(statSync(folder).mtimeMs).not.toBe(SECOND * 1000);
    utimesSync(folder, SECOND, SECOND);
    expect(presentFiles(dir, { files, digest }, last).has('guide/unseen.txt')).toBe(false);
  });

  it('lists the output when a file was added or removed since, or when the list is not that build\'s', () => {
    const { dir, files, digest, last } = output();
    rmSync(join(dir, 'guide/install/index.html'));
    writeFileSync(join(dir, 'assets/search/stray.json'), '{}');
    const listed = [...presentFiles(dir, { files, digest }, last)].sort();
    expect(listed).toContain('assets/search/stray.json');
    expect(listed).not.toContain('guide/install/index.html');

    const fresh = output();
    const other = { files: [...fresh.files, 'gone.html'], digest: 'another build' };
    expect(presentFiles(fresh.dir, other, fresh.last).has('gone.html')).toBe(false);
    expect(presentFiles(fresh.dir, { files: other.files }, fresh.last).has('gone.html')).toBe(false);
    expect(presentFiles(fresh.dir, { ...other, digest: fresh.digest }, undefined).has('gone.html')).toBe(false);
    expect(presentFiles(fresh.dir, { ...other, digest: fresh.digest }, fresh.last).has('gone.html')).toBe(true);
    // A file edited in place, no folder changed: its own stats are in the fingerprint, so the output
    // is listed, and the file, not as the build left it, counts as absent (the build writes it again).
    writeFileSync(join(fresh.dir, 'guide/index.html'), 'edited in place: no folder changes');
    const after = presentFiles(fresh.dir, { ...other, digest: fresh.digest }, fresh.last);
    expect(after.has('gone.html')).toBe(false);
    expect(after.has('guide/index.html')).toBe(false);
    expect(after.has('guide/install/index.html')).toBe(true);
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
