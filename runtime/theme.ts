/** Colour mode: `html[data-theme]` is the one source of truth, set before paint by the head script. */
import { useEffect, useState } from 'react';
import { writeStorage } from './storage';

/** Switches between dark and light and remembers the choice under `storageKey`. */
export function toggleTheme(storageKey: string): void {
  const root = document.documentElement;
  const next = root.getAttribute('data-theme') === 'light' ? 'dark' : 'light';
  root.setAttribute('data-theme', next);
  writeStorage(storageKey, next);
}

/**
 * The colour mode in force, for what says it (the toggle's name): undefined until after hydration,
 * since the page's HTML is the same for both modes; then follows every switch, from any tab's toggle.
 */
export function useColourMode(): 'dark' | 'light' | undefined {
  const [mode, setMode] = useState<'dark' | 'light' | undefined>(undefined);
  useEffect(() => {
    const root = document.documentElement;
    const read = (): void => setMode(root.getAttribute('data-theme') === 'light' ? 'light' : 'dark');
    read();
    const observer = new MutationObserver(read);
    observer.observe(root, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, []);
  return mode;
}
