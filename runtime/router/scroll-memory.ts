/**
 * Scroll positions per history entry, so back and forward land where the reader was. Each entry the
 * router creates carries a key in `history.state`; entries the browser creates (fragment links) get
 * one when they are left. Positions survive a reload through sessionStorage.
 */
const STORAGE_KEY = 'docs-scroll-positions';

/** A random key for a new history entry. */
function newKey(): string {
  return Math.random().toString(36).slice(2, 10);
}

function keyOf(state: unknown): string | undefined {
  const key = (state as { key?: unknown } | null)?.key;
  return typeof key === 'string' ? key : undefined;
}

/** Owns the history entries the router pushes and remembers where each was scrolled to. */
export class ScrollMemory {
  private readonly positions: Map<string, number>;
  private key: string;

  constructor() {
    history.scrollRestoration = 'manual';
    this.positions = new Map(readSaved());
    this.key = keyOf(history.state) ?? newKey();
    history.replaceState({ ...(history.state as object | null), key: this.key }, '');
    addEventListener('pagehide', () => {
      this.save();
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...this.positions]));
      } catch {
        // Without sessionStorage, positions last until the tab is closed or reloaded.
      }
    });
  }

  /** Where the current entry was when it was last left (after a reload), if known. */
  current(): number | undefined {
    return this.positions.get(this.key);
  }

  /** Leaves the current entry for a new one at `url`. */
  push(url: string): void {
    this.save();
    this.key = newKey();
    history.pushState({ key: this.key }, '', url);
  }

  /** Replaces the current entry's URL (normalised paths). */
  replace(url: string): void {
    history.replaceState({ ...(history.state as object | null), key: this.key }, '', url);
  }

  /** After `popstate`: remembers the entry left and returns the position saved for the one reached. */
  pop(state: unknown): number | undefined {
    this.save();
    const key = keyOf(state);
    if (key) {
      this.key = key;
      return this.positions.get(key);
    }
    this.key = newKey();
    history.replaceState({ ...(state as object | null), key: this.key }, '');
    return undefined;
  }

  private save(): void {
    this.positions.set(this.key, scrollY);
  }
}

function readSaved(): [string, number][] {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]') as unknown;
    return Array.isArray(saved) ? (saved as [string, number][]) : [];
  } catch {
    return [];
  }
}
