/**
 * chokidar stops watching a root that goes (the content folder moved away while a branch is switched,
 * a templates folder removed) and never sees it come back. A root that is not there is looked for
 * every `ROOT_POLL_MS` until it is; `onBack` hears of the roots that came back (the server watches
 * them again and builds the site in full).
 */
import { existsSync } from 'node:fs';

/** How often a watched folder that is not there (moved away, not made yet) is looked for. */
const ROOT_POLL_MS = 300;

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
