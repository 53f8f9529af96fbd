/**
 * One build at a time into an output folder. Two builds into one folder at once (two sites, or a CI
 * job run twice) each published over the other: the output held one site's pages and the other's page
 * data and search index, and each build's record vouched for what it found, so the other site's text
 * stayed through every later build. A build takes a lock named by the output folder's real path, in the
 * system's temporary folder (not beside the output, which may be a mount point or under a folder the
 * user may not write), and a second build is refused while the first runs. A lock left by a build that
 * died is taken over.
 */
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocsError } from '../util/errors';
import { isRunning } from './publish';

/** Where the locks are: one folder for every user of the machine (sticky, like /tmp). */
function lockFolder(): string {
  return join(tmpdir(), 'docs-output-locks');
}

/** Locks `outDir` (a real path) for this build; returns what releases it. Where no lock can be taken (a read-only temporary folder), the build goes on unlocked. */
export function lockOutput(outDir: string, folder = lockFolder()): () => void {
  const file = join(folder, `${createHash('sha256').update(outDir).digest('hex').slice(0, 32)}.lock`);
  const unlocked = (): void => undefined;
  try {
    mkdirSync(folder, { recursive: true });
    chmodSync(folder, 0o1777);
  } catch {
    // Made by another user already (then it is theirs to set), or not to be made at all.
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n${outDir}\n`, { flag: 'wx', mode: 0o644 });
      return () => {
        try {
          if (readFileSync(file, 'utf8').startsWith(`${process.pid}\n`)) rmSync(file, { force: true });
        } catch {
          // Gone already.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return unlocked;
    }
    let holder = Number.NaN;
    try {
      holder = Number(readFileSync(file, 'utf8').split('\n')[0]);
    } catch {
      // Released meanwhile: the next attempt takes it.
    }
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isRunning(holder)) {
      throw new DocsError('usage', [{ file: outDir, message: `another docs build (process ${holder}) is writing this output folder: two at once would mix their files`, fix: 'wait for it to end, or build into another folder with --out' }]);
    }
    // A build that died (or an earlier build of this process that never let go) left it.
    try {
      rmSync(file, { force: true });
    } catch {
      return unlocked;
    }
  }
  return unlocked;
}
