/**
 * Last-update data from git: one `git log` pass for the whole content folder (never a process per
 * file). Files git does not track fall back to their mtime, with no author.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { LastUpdated } from '../../runtime/manifest';

const run = promisify(execFile);
const RECORD = '\x1e';
const FIELD = '\x1f';

/** Parses `git log --format=%x1e%an%x1f%ct --name-only` output: the newest commit of each path wins. */
export function parseGitLog(output: string): Map<string, LastUpdated> {
  const result = new Map<string, LastUpdated>();
  for (const record of output.split(RECORD)) {
    const [header, ...files] = record.split('\n');
    if (!header) continue;
    const [author, seconds] = header.split(FIELD);
    const timestamp = Number(seconds) * 1000;
    for (const file of files) {
      const path = file.trim();
      if (path && !result.has(path)) result.set(path, { author, timestamp });
    }
  }
  return result;
}

/** Last update of every tracked file below `dir`, keyed by path relative to `dir`. Empty outside a repository. */
export async function readLastUpdates(dir: string): Promise<Map<string, LastUpdated>> {
  try {
    const { stdout } = await run('git', ['-C', dir, 'log', '--relative', '--no-renames', `--format=${RECORD}%an${FIELD}%ct`, '--name-only', '--', '.'], {
      maxBuffer: 256 * 1024 * 1024,
    });
    return parseGitLog(stdout);
  } catch {
    return new Map();
  }
}
