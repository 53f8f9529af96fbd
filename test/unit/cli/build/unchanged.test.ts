import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitHead } from '../../../../cli/build/unchanged';

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
