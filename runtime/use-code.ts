import { useEffect, useState } from 'react';

/** What `useCode` gives: nothing yet, the loaded value, or why it did not come. */
export type Code<T> = undefined | { code: T } | { error: unknown };

/** Loads under way or done, by loader: one per page, whoever asks. */
const loads = new WeakMap<() => Promise<unknown>, Promise<unknown>>();
/** What loaders gave: a component mounted after the load renders it at once. */
const loaded = new WeakMap<() => Promise<unknown>, { code: unknown }>();

/**
 * What `load` (an island's `import()`) resolves to, asked for while `wanted` and rendered the moment
 * it is in. Not React's `lazy()` in a `<Suspense>`: React holds content back 300 ms after a fallback
 * showed, however soon the code came — the search dialog's first query and a signed-out reader's login
 * screen waited that long for a chunk that took 10 ms. A load that failed is tried again the next time
 * the code is wanted (after `wanted` went false).
 */
export function useCode<T>(load: () => Promise<T>, wanted: boolean): Code<T> {
  const [state, setState] = useState<Code<T>>(() => loaded.get(load) as { code: T } | undefined);
  useEffect(() => {
    if (!wanted) {
      if (state && 'error' in state) setState(undefined);
      return;
    }
    if (state) return;
    let pending = loads.get(load) as Promise<T> | undefined;
    if (!pending) {
      pending = load().then((code) => {
        loaded.set(load, { code });
        return code;
      });
      loads.set(load, pending);
      pending.catch(() => loads.delete(load));
    }
    let current = true;
    pending.then(
      (code) => current && setState({ code }),
      (error: unknown) => current && setState({ error }),
    );
    return () => {
      current = false;
    };
  }, [load, wanted, state]);
  return state;
}
