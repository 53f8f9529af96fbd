/**
 * Loads what a client-side navigation needs: the route manifest (fetched once, after hydration), the
 * route's code chunks, and the page's data chunk. React-free, so it is tested with plain functions.
 */
import type { Manifest, PageData, PageModule, RouteEntry } from '../manifest';
import { routeOfPath } from '../routing';

/** The parts of `navigator.connection` that decide whether prefetching is welcome. */
export interface ConnectionInfo {
  saveData?: boolean;
  effectiveType?: string;
}

/** False on a data-saver or 2g connection (spec §9): prefetching would spend the reader's data. */
export function prefetchAllowed(connection: ConnectionInfo | undefined): boolean {
  if (!connection) return true;
  return connection.saveData !== true && !(connection.effectiveType ?? '').includes('2g');
}

/** The browser's connection information, where it has any (Chromium does, Safari and Firefox do not). */
export function currentConnection(): ConnectionInfo | undefined {
  return (navigator as Navigator & { connection?: ConnectionInfo }).connection;
}

/** What the loader needs from its environment; the browser entry passes the real ones. */
export interface RouteLoaderOptions {
  manifestUrl: string;
  /** Fetches and parses a JSON file. */
  fetchJson: (url: string) => Promise<unknown>;
  /** `import(url)`; failures reject. */
  importModule: (url: string) => Promise<unknown>;
  /** Loads the diagram chunk, for routes with mermaid diagrams. */
  loadMermaid: () => Promise<unknown>;
  /** The current connection, read on every prefetch (it may change). */
  connection: () => ConnectionInfo | undefined;
}

/**
 * The event `docs serve`'s live script sends the window when pages changed on the server, its detail
 * their routes. The runtime cancels it (`preventDefault`) when the page on screen is not among them:
 * it forgets the manifest and those pages' data, and the tab stays as it is. Uncancelled, the script
 * reloads the tab. Never sent by a production host.
 */
export const PAGES_CHANGED_EVENT = 'docs:pages-changed';

/** Error of a page chunk that loaded but exports no page. */
export function noDefaultExportError(path: string): Error {
  return new Error(`The page component for ${path} has no default export, so the page cannot be shown.`);
}

/** Loads and caches the manifest and page data of one site. */
export class RouteLoader {
  private manifest: Promise<Manifest> | undefined;
  private routes: Map<string, RouteEntry> | undefined;
  private readonly pages = new Map<string, Promise<PageData>>();
  /** Failed or forgotten loads per route: the next import adds `?retry=N` to get a fresh module. */
  private readonly attempts = new Map<string, number>();

  constructor(private readonly options: RouteLoaderOptions) {}

  /** The manifest, fetched on first use; a failed fetch is forgotten so the next call tries again. */
  loadManifest(): Promise<Manifest> {
    this.manifest ??= this.options.fetchJson(this.options.manifestUrl).then(
      (value) => this.take(value as Manifest),
      (error: unknown) => {
        this.manifest = undefined;
        throw error;
      },
    );
    return this.manifest;
  }

  /**
   * Everything a route needs before it can be shown, besides its data: the manifest and its code
   * chunks. Resolves to the route, or null for an unknown path. Rejects when a chunk cannot be loaded,
   * which usually means a new deployment replaced the hashed files: the caller reloads the page.
   */
  async preload(path: string): Promise<{ route: RouteEntry | null; manifest: Manifest }> {
    const manifest = await this.loadManifest();
    const route = this.routes?.get(routeOfPath(path)) ?? null;
    if (route?.mermaid) await this.options.loadMermaid();
    return { route, manifest };
  }

  /** Seeds the cache with a page already on screen (the pre-rendered one), so going back costs nothing. */
  seed(data: PageData): void {
    this.pages.set(data.route, Promise.resolve(data));
  }

  /** The route's page data. Rejects when the chunk fails to load or has no default export. */
  loadPage(route: RouteEntry): Promise<PageData> {
    const cached = this.pages.get(route.path);
    if (cached) return cached;
    const attempt = this.attempts.get(route.path) ?? 0;
    // Browsers may keep a failed or bad module in their module map: a new URL asks the server again.
    const url = attempt === 0 ? route.data : `${route.data}?retry=${attempt}`;
    const pending = this.options.importModule(url).then(
      (module) => {
        const data = (module as Partial<PageModule> | null)?.default;
        if (data === undefined) throw noDefaultExportError(route.path);
        return data;
      },
      (error: unknown) => {
        throw fetchFailure(error);
      },
    );
    pending.catch(() => this.forget(route.path));
    this.pages.set(route.path, pending);
    return pending;
  }

  /**
   * True when the site was deployed again since the manifest was read: a fresh manifest (asked past any
   * cache) names other data for `route`, or no longer has it. Its page chunk then no longer exists, and
   * only a full load shows the page. The fresh manifest replaces the old one. Rejects when it cannot be
   * fetched (offline: the error state, with Retry, is the right answer then).
   */
  async deployedSince(route: RouteEntry): Promise<boolean> {
    const separator = this.options.manifestUrl.includes('?') ? '&' : '?';
    const fresh = (await this.options.fetchJson(`${this.options.manifestUrl}${separator}t=${Date.now()}`)) as Manifest;
    const now = fresh.routes.find((entry) => entry.path === route.path);
    if (now?.data === route.data) return false;
    this.manifest = Promise.resolve(this.take(fresh));
    this.pages.clear();
    return true;
  }

  /** Makes `manifest` the one routes are looked up in. */
  private take(manifest: Manifest): Manifest {
    this.routes = new Map(manifest.routes.map((route) => [route.path, route]));
    return manifest;
  }

  /**
   * Forgets the manifest and the cached data of `paths`, whose pages changed on the server (`docs
   * serve`): the next navigation or prefetch fetches both afresh (a changed page's chunk has a new name,
   * which only the new manifest knows).
   */
  changed(paths: readonly string[]): void {
    this.manifest = undefined;
    for (const path of paths) this.pages.delete(path);
  }

  /** Drops a route's cached data, so the next load fetches a fresh copy. */
  forget(path: string): void {
    this.pages.delete(path);
    this.attempts.set(path, (this.attempts.get(path) ?? 0) + 1);
  }

  /**
   * Warms the cache for a link the reader is likely to follow: its data, and on `intent` (hover or
   * focus) its code chunks too. Does nothing on a slow or data-saver connection; never rejects.
   */
  prefetch(path: string, intent: boolean): void {
    if (!prefetchAllowed(this.options.connection())) return;
    const target = routeOfPath(path);
    this.loadManifest()
      .then(() => {
        const route = this.routes?.get(target);
        if (!route) return;
        if (intent && route.mermaid) void this.options.loadMermaid().catch(() => undefined);
        return this.loadPage(route);
      })
      .catch(() => undefined);
  }
}

/**
 * A page chunk that did not arrive, said in words a reader can act on: each browser words it its own
 * way, with an internal address ("Failed to fetch dynamically imported module: …/assets/pages/x.js",
 * "error loading dynamically imported module", "Importing a module script failed"). Any other error
 * (a chunk that arrived and does not run) keeps its own text.
 */
function fetchFailure(error: unknown): unknown {
  const text = error instanceof Error ? error.message : String(error);
  if (!/dynamically imported module|importing a module script failed/i.test(text)) return error;
  const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
  return new Error(`The page's text could not be fetched: ${offline ? 'this device is offline' : 'the network or the server did not answer (are you offline?)'}. Check the connection, then retry.`);
}
