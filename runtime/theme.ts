/** Colour mode: `html[data-theme]` is the one source of truth, set before paint by the head script. */
import { writeStorage } from './storage';

/** Switches between dark and light and remembers the choice under `storageKey`. */
export function toggleTheme(storageKey: string): void {
  const root = document.documentElement;
  const next = root.getAttribute('data-theme') === 'light' ? 'dark' : 'light';
  root.setAttribute('data-theme', next);
  writeStorage(storageKey, next);
}
