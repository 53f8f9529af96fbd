/**
 * What `docs serve` watches: its roots (content, templates, runtime, config, spec folders) and the
 * paths a build named later, with chokidar; which files changed, by their real paths.
 *
 * chokidar follows a link into a folder that holds it without end (two links back up: gigabytes within
 * a minute, chokidar#1462): here it follows none. It stops watching a root that goes (the content folder
 * moved away while a branch is switched, a templates folder removed) and never sees it come back: a
 * root that is not there is looked for every `ROOT_POLL_MS` until it is.
 */
import { existsSync, lstatSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { realPath } from '../build/write';

/** How often a watched folder that is not there (moved away, not made yet) is looked for. */
const ROOT_POLL_MS = 300;
/** How long the watcher is given to read a folder added while serving before what changed there is looked for. */
const ADDED_SETTLE_MS = 1500;
/** How far before a root's return a file's time may be and still be applied once the root is watched again. */
const ROOT_BACK_MARGIN_MS = 1000;

/** Looks for the roots that are gone; `gone` adds one (chokidar reported its `unlinkDir`), `close` stops looking. */
export function lookForRoots(roots: string[], onBack: (back: string[]) => void): { gone: (root: string) => void; close: () => void } {
  const missing = new Set(roots.filter((root) => !existsSync(root)));
  let timer: NodeJS.Timeout | undefined;
  const look = (): void => {
    if (missing.size === 0 || timer) return;
    timer = setInterval(() => {
      const back = [...missing].filter((root) => existsSync(root));
      for (const root of back) missing.delete(root);
      if (back.length > 0) onBack(back);
      if (missing.size === 0) {
        clearInterval(timer);
        timer = undefined;
      }
    }, ROOT_POLL_MS);
    timer.unref();
  };
  look();
  return {
    gone: (root) => {
      missing.add(root);
      look();
    },
    close: () => clearInterval(timer),
  };
}

export interface SourceWatchOptions {
  /** The roots, by their real paths (a content folder may itself be a link). */
  roots: string[];
  /** When the server started: a link in the roots older than that was read by the first build. */
  startedAt: number;
  /** For the tests only: a watcher of a root that came back starts this late, as one reading a large folder. */
  delayMs: number;
  /** Hears of files that changed (real paths), and of roots that came back (the site is built in full). */
  onChange: (paths: string[]) => void;
}

/** The server's watch of its sources. */
export interface SourceWatch {
  /** Resolves once the first watcher has read its roots. */
  ready: Promise<void>;
  /** The files the watchers know (below `within`, when given) changed since `since`, reported to `onChange`. */
  applyChangedSince: (since: number, within?: string[]) => void;
  /** Watches paths a build named (the content folder a saved config moved, linked folders) from its start, `since`. */
  also: (paths: string[], since: number) => void;
  close: () => Promise<void>;
}

/** Starts watching `roots` (those that exist; the others are looked for). */
export function watchSources({ roots, startedAt, delayMs, onChange }: SourceWatchOptions): SourceWatch {
  let closed = false;
  /** Every watcher: the first, and one for each root that came back. */
  const watchers = new Set<FSWatcher>();
  /** The watcher made for a root that came back, by root. */
  const rootWatchers = new Map<string, FSWatcher>();
  // A path added once the watcher is ready (or a root that came back) may have its files reported as
  // added: the report of a file older than the build that found the path is passed over (the build read
  // it as it is); a newer one may have been saved after it was read, and is applied.
  const watchedSince = new Map<string, number>();
  const alreadyThere = (path: string): boolean => {
    try {
      for (const [root, since] of watchedSince) if (path === root || path.startsWith(root + sep)) return statSync(path).mtimeMs < since;
      // chokidar reports the links in its first paths as added, `ignoreInitial` or not: one made before
      // the server started was read by the first build.
      const link = lstatSync(path);
      return link.isSymbolicLink() && link.mtimeMs < startedAt;
    } catch {
      return false;
    }
  };
  const applyChangedSince = (since: number, within?: string[]): void => {
    const changed = [...watchers]
      .flatMap((each) => Object.entries(each.getWatched()))
      .filter(([dir]) => !within || within.some((root) => dir === root || dir.startsWith(root + sep)))
      .flatMap(([dir, names]) =>
        names.map((name) => join(dir, name)).filter((path) => {
          try {
            const stats = statSync(path);
            return stats.isFile() && stats.mtimeMs >= since;
          } catch {
            return false;
          }
        }),
      );
    if (changed.length > 0) onChange(changed);
  };
  const startWatcher = (paths: string[]): FSWatcher => {
    const made = watch(paths, { ignoreInitial: true, followSymlinks: false, ignored: (path) => /(^|[/\\])(node_modules|\.git)([/\\]|$)/.test(path) });
    watchers.add(made);
    made.on('all', onWatched);
    return made;
  };
  // A root that comes back is built in full and watched again by a watcher of its own, whose `ready`
  // says when the root is read and watched (chokidar's `add` says nothing of the kind, and keeps what it
  // knew of the path before: its per-folder throttles, its closed handles). Then what changed there
  // since the root came back is applied: the full build may have read a file before a save that no
  // watcher was there to see yet. (A clean clone's test run once lost a save made 0.5 s after that build
  // with chokidar's `add`; the loss was not reproduced alone.)
  const rootsBack = lookForRoots(roots, (back) => {
    // Less a second: a file's time is the kernel's coarse clock, a little behind `Date.now()`.
    const since = Date.now() - ROOT_BACK_MARGIN_MS;
    for (const root of back) {
      watchedSince.set(root, since);
      const watchAgain = (): void => {
        if (closed) return;
        // Gone again before it was watched: looked for again.
        if (!existsSync(root)) return rootsBack.gone(root);
        const made = startWatcher([root]);
        rootWatchers.set(root, made);
        made.once('ready', () => applyChangedSince(since, [root]));
      };
      if (delayMs > 0) setTimeout(watchAgain, delayMs).unref();
      else watchAgain();
    }
    onChange(back);
  });
  function onWatched(event: string, path: string): void {
    if (event === 'unlinkDir' && roots.includes(path)) {
      rootsBack.gone(path);
      const gone = rootWatchers.get(path);
      rootWatchers.delete(path);
      if (gone) {
        watchers.delete(gone);
        void gone.close();
      }
    }
    // A folder made or removed changes no page by itself: the files in it are reported one by one.
    if (event === 'addDir' || event === 'unlinkDir' || (event === 'add' && alreadyThere(path))) return;
    onChange([path]);
  }
  const first = startWatcher(roots.filter(existsSync));
  return {
    ready: new Promise<void>((ready) => first.once('ready', () => ready())),
    applyChangedSince,
    also: (paths, since) => {
      // The roots watched from the start need no second look (the content folder of a large site: a scan of every file).
      const added = paths.filter((path) => !watchedSince.has(path) && !roots.includes(existsSync(path) ? realPath(path) : path));
      for (const path of added) watchedSince.set(path, since);
      if (added.length === 0) return;
      first.add(added);
      // A file saved while the watcher still reads a folder it was just given is not reported (the
      // content folder a saved config moved): what changed there since the build is applied once it has.
      setTimeout(() => applyChangedSince(since, added), ADDED_SETTLE_MS).unref();
    },
    close: async () => {
      closed = true;
      rootsBack.close();
      await Promise.all([...watchers].map((each) => each.close()));
    },
  };
}
