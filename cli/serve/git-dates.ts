/**
 * `docs serve` and the git history its pages' "Last updated" lines come from: the commit the content's
 * repository was at when the dates and authors were read, and a look every second whether a commit,
 * a checkout or a pull has moved it since (a commit changes no file the watcher sees: it leaves `.git`
 * alone). Each look reads two small files, no process (`gitHead`).
 */
import type { LastUpdated } from '../../runtime/manifest';
import { readLastUpdates } from '../build/git';
import { gitHead } from '../build/unchanged';

/** How often the repository's HEAD is looked at. */
const HEAD_CHECK_MS = 1000;

export class GitDates {
  /** The commit the repository was at when the dates were last read. */
  private head: string | undefined;

  /** Called before a full build reads the history; the returned function records that the build used it. */
  beforeBuild(dir: string): () => void {
    const head = gitHead(dir);
    return () => {
      this.head = head;
    };
  }

  /** The history read again when HEAD moved since (undefined when it did not); `taken()` once the pages show it. */
  async readIfMoved(dir: string): Promise<{ dates: Map<string, LastUpdated>; taken: () => void } | undefined> {
    const now = gitHead(dir);
    if (now === this.head) return undefined;
    return {
      dates: await readLastUpdates(dir),
      taken: () => {
        this.head = now;
      },
    };
  }

  /** Calls `moved` every HEAD_CHECK_MS while `ready()` and HEAD differs from the dates' commit; returns the stop. */
  watch(dir: () => string, ready: () => boolean, moved: () => void): () => void {
    const timer = setInterval(() => {
      if (ready() && gitHead(dir()) !== this.head) moved();
    }, HEAD_CHECK_MS).unref();
    return () => clearInterval(timer);
  }
}
