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

/** Addresses whose last position is kept (the most recent ones). */
const MAX_ADDRESSES = 200;

/** An address as the router writes it: `/a/b`, whether the host served `/a/b/`, `/a/b.html` or `/a/b/index.html`; no fragment. */
function address(url: string = location.href): string {
  const { pathname, search } = new URL(url, location.href);
  return (pathname.replace(/\/index\.html$|\.html$|\/+$/, '') || '/') + search;
}

/** How this document was reached: a reload, back or forward, or a new navigation. */
function navigationType(): string {
  const entry = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
  return entry?.type ?? 'navigate';
}

/** Owns the history entries the router pushes and remembers where each was scrolled to. */
export class ScrollMemory {
  private readonly positions: Map<string, number>;
  /** The last position of each address: what a reload or a return finds when the host lost the entry's key. */
  private readonly byAddress: Map<string, number>;
  private key: string;
  /** The current entry's address (at `popstate` the location is already the next entry's). */
  private here = address();

  constructor() {
    history.scrollRestoration = 'manual';
    const saved = readSaved();
    this.positions = new Map(saved.keys);
    this.byAddress = new Map(saved.addresses);
    const kept = keyOf(history.state);
    this.key = kept ?? newKey();
    // A host that answers `/a/b` with a redirect to `/a/b/` (python -m http.server, nginx and Apache
    // by default) makes a reload, or a return to an entry of an earlier page load, a new document
    // without the entry's state: the position is then the address's last one.
    const type = navigationType();
    const known = this.byAddress.get(address());
    if (!kept && (type === 'reload' || type === 'back_forward') && known !== undefined) this.positions.set(this.key, known);
    history.replaceState({ ...(history.state as object | null), key: this.key }, '');
    addEventListener('pagehide', () => {
      this.save();
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ keys: [...this.positions], addresses: [...this.byAddress].slice(-MAX_ADDRESSES) }));
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
    this.here = address(url);
    history.pushState({ key: this.key }, '', url);
  }

  /** Replaces the current entry's URL (normalised paths). */
  replace(url: string): void {
    this.here = address(url);
    history.replaceState({ ...(history.state as object | null), key: this.key }, '', url);
  }

  /** After `popstate`: remembers the entry left and returns the position saved for the one reached. */
  pop(state: unknown): number | undefined {
    this.save();
    this.here = address();
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
    // Most recent last: re-inserted, so the oldest go first when the list is cut.
    this.byAddress.delete(this.here);
    this.byAddress.set(this.here, scrollY);
  }
}

function readSaved(): { keys: [string, number][]; addresses: [string, number][] } {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}') as { keys?: unknown; addresses?: unknown } | unknown[];
    // An earlier runtime kept the positions by key alone, as a list.
    if (Array.isArray(saved)) return { keys: saved as [string, number][], addresses: [] };
    return { keys: Array.isArray(saved.keys) ? (saved.keys as [string, number][]) : [], addresses: Array.isArray(saved.addresses) ? (saved.addresses as [string, number][]) : [] };
  } catch {
    return { keys: [], addresses: [] };
  }
}
