/**
 * The client router as a React hook: intercepts internal link clicks and history traversal, loads the
 * target through the `RouteLoader`, and tells the app what to show (the page, a loading animation or
 * a load error) and whether the progress bar is due.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { notFoundPage } from '../components/NotFound/NotFound';
import type { PageMeta, SidebarItem, SiteData } from '../manifest';
import { normalisePath, pageTitle, routeOfPath, scrollToFragment } from '../routing';
import { anchorOf, internalUrl, isPlainClick } from './links';
import { currentConnection as connection, PAGES_CHANGED_EVENT, prefetchAllowed, type RouteLoader } from './loader';
import { keepFocusInBox, restoreFocus, takeFocusSnapshot, type FocusSnapshot } from './focus';
import { ScrollMemory } from './scroll-memory';
import { showPageTitle } from '../title';

/** Where a page's sidebar comes from: pre-rendered HTML on the first page, the manifest's tree after. */
export type SidebarSource = { html: string } | { items: SidebarItem[] };

/** One page as shown. */
export interface View {
  page: PageMeta;
  /** Pre-rendered HTML of the body. */
  html: string;
  sidebar: SidebarSource | null;
  /** Grows with every view shown: keys the crash boundary and the effects that follow a navigation. */
  serial: number;
}

/** What the main column shows. */
export type MainState = { kind: 'view' } | { kind: 'loading' } | { kind: 'error'; message: string };

/** The page the address names while it is not shown: as the manifest lists it. */
export interface Target {
  route: string;
  title: string;
  sidebar: SidebarSource;
}

/** The router's state, rendered by the app. */
export interface RouterState {
  view: View;
  main: MainState;
  /**
   * While the main column shows the loading animation or a load error: the page being loaded, once
   * the manifest is in. The tab's title and the sidebar name it, as the address bar does, not the page
   * the reader left.
   */
  target?: Target;
  /** True while a navigation has taken longer than `PROGRESS_DELAY_MS`. */
  progress: boolean;
}

/** A navigation shows its progress bar and loading animation only once it takes this long (spec §9). */
export const PROGRESS_DELAY_MS = 200;

type Mode = 'push' | 'replace' | 'pop' | 'retry';

interface ScrollIntent {
  hash?: string;
  /** Position to restore (back/forward); else the top. */
  y?: number;
}

/** Options of `useRouter`. */
export interface UseRouterOptions {
  site: SiteData;
  initial: View;
  /** Absent on the server, where nothing navigates. */
  loader?: RouteLoader;
}

/** The router's state and its one command. */
export interface Router {
  state: RouterState;
  /** Loads the current path again; `fresh` ignores the cached data (after a crash). */
  retry: (fresh: boolean) => void;
}

function href(url: URL): string {
  return url.pathname + url.search + url.hash;
}

/** Runs the router for the app. */
export function useRouter({ site, initial, loader }: UseRouterOptions): Router {
  const [state, setState] = useState<RouterState>({ view: initial, main: { kind: 'view' }, progress: false });
  const latest = useRef(state);
  latest.current = state;
  const serial = useRef(initial.serial);
  const navigation = useRef(0);
  /** True while a navigation loads its page: one that began before a save may bring the page as it was. */
  const loading = useRef(false);
  const intent = useRef<ScrollIntent | null>(null);
  const memory = useRef<ScrollMemory | null>(null);
  /** Where focus was when the navigation being shown started, to put it back once it is in the DOM. */
  const focus = useRef<FocusSnapshot | null>(null);
  /** The focus when the navigation under way started, for the loading view (`keepFocusInBox`). */
  const loadingFocus = useRef<FocusSnapshot | null>(null);

  const navigate = useCallback(
    async (url: URL, mode: Mode, restore?: number): Promise<void> => {
      if (!loader) return;
      const id = ++navigation.current;
      const current = (): boolean => id === navigation.current;
      loading.current = true;
      const path = normalisePath(url.pathname);
      // Taken now: the loading animation may replace the focused link before the page comes.
      const focused = takeFocusSnapshot();
      loadingFocus.current = focused;
      if (url.pathname !== path) url = new URL(path + url.search + url.hash, url);
      if (mode === 'push') memory.current?.push(href(url));
      else if (mode === 'replace') memory.current?.replace(href(url));
      /** The page being loaded, once the manifest says what it is. */
      let target: Target | undefined;
      if (mode === 'retry') setState((previous) => ({ ...previous, main: { kind: 'loading' } }));
      const slow = setTimeout(() => current() && setState((previous) => ({ ...previous, main: { kind: 'loading' }, progress: true, target })), PROGRESS_DELAY_MS);
      try {
        let preloaded;
        try {
          preloaded = await loader.preload(path);
        } catch {
          // The manifest or a code chunk is gone (usually a new deployment): a full load gets the new one.
          if (current()) location.reload();
          return;
        }
        if (preloaded.route) {
          const { path: route, title, sidebar } = preloaded.route;
          target = { route, title, sidebar: { items: preloaded.manifest.sidebars[sidebar] ?? [] } };
          // The loading animation is up already (a slow manifest): the page it loads is named now.
          if (current()) setState((previous) => (previous.main.kind === 'loading' ? { ...previous, target } : previous));
        }
        let view: View;
        if (!preloaded.route) {
          view = { page: notFoundPage(path), html: '', sidebar: null, serial: ++serial.current };
        } else {
          try {
            const data = await loader.loadPage(preloaded.route);
            view = { page: data, html: data.html, sidebar: { items: preloaded.manifest.sidebars[preloaded.route.sidebar] ?? [] }, serial: ++serial.current };
          } catch (error) {
            // A new deployment replaced the page's data (a tab left open across it): a full load gets the new page.
            if (await loader.deployedSince(preloaded.route).catch(() => false)) {
              if (current()) location.reload();
              return;
            }
            if (!current()) return;
            focus.current = focused;
            setState((previous) => ({ ...previous, main: { kind: 'error', message: error instanceof Error ? error.message : String(error) }, progress: false, target }));
            return;
          }
        }
        if (!current()) return;
        focus.current = focused;
        intent.current = mode === 'pop' && restore !== undefined ? { y: restore } : { hash: url.hash || undefined };
        setState({ view, main: { kind: 'view' }, progress: false });
      } finally {
        clearTimeout(slow);
        if (current()) loading.current = false;
      }
    },
    [loader],
  );

  useEffect(() => {
    if (!loader) return;
    const scroll = new ScrollMemory();
    memory.current = scroll;
    const first = latest.current.view;
    if (!first.page.notFound) loader.seed({ ...first.page, html: first.html });
    const bare = normalisePath(location.pathname);
    if (bare !== location.pathname) {
      const url = new URL(bare + location.search + location.hash, location.href);
      // `/a/b.html` on a static host is a 404 whose bare path may well exist; `/a/b/index.html` is the page itself.
      if (first.page.notFound) void navigate(url, 'replace');
      else scroll.replace(href(url));
    }
    const reloaded = scroll.current();
    // A reload: where the reader was, or, when they had not scrolled (a reload right after a sign-in,
    // a link opened again), the section the URL names. The browser does neither: restoration is manual.
    if (reloaded !== undefined && (reloaded > 0 || !location.hash)) scrollTo(0, reloaded);
    else if (location.hash) scrollToFragment(location.hash);
    const idle = window.requestIdleCallback ?? ((callback: () => void) => setTimeout(callback, 1));
    // Signed out, the login screen navigates nowhere, and a gated host refuses the manifest (401).
    const signedIn = document.documentElement.getAttribute('data-auth') === 'in';
    if (signedIn && prefetchAllowed(connection())) idle(() => void loader.loadManifest().catch(() => undefined));

    const onClick = (event: MouseEvent): void => {
      if (!isPlainClick(event)) return;
      const anchor = anchorOf(event);
      const url = anchor && internalUrl(anchor);
      if (!url) return;
      const samePage = normalisePath(url.pathname) === normalisePath(location.pathname) && latest.current.main.kind === 'view';
      // A `#fragment` on the page shown is the browser's job: it scrolls and adds the history entry.
      if (samePage && url.hash) return;
      event.preventDefault();
      if (samePage && url.search === location.search) {
        // The page's top, from a section of it (`/page#part`): the address loses the fragment, as a
        // reload or a copied link would otherwise open the section again, and Back returns to it.
        if (location.hash) scroll.push(href(url));
        scrollTo(0, 0);
      } else void navigate(url, 'push');
    };
    const onPopState = (event: PopStateEvent): void => {
      const restore = scroll.pop(event.state);
      const shown = latest.current;
      if (routeOfPath(location.pathname) === shown.view.page.route && shown.main.kind === 'view' && !shown.view.page.notFound) {
        if (restore !== undefined) scrollTo(0, restore);
        return;
      }
      void navigate(new URL(location.href), 'pop', restore);
    };
    const onIntent = (event: Event): void => {
      const anchor = anchorOf(event);
      const url = anchor && internalUrl(anchor);
      if (url) loader.prefetch(url.pathname, true);
    };
    // `docs serve` changed pages (PAGES_CHANGED_EVENT): a tab whose page is not among them stays as it
    // is and forgets what it fetched of them; otherwise, or with a navigation under way, the event is
    // left to the live script, which reloads the tab.
    const onPagesChanged = (event: Event): void => {
      const routes = (event as CustomEvent<unknown>).detail;
      const shown = latest.current;
      if (!Array.isArray(routes) || loading.current || shown.main.kind !== 'view' || shown.view.page.notFound || routes.includes(shown.view.page.route)) return;
      loader.changed(routes as string[]);
      event.preventDefault();
    };
    document.addEventListener('click', onClick);
    addEventListener('popstate', onPopState);
    addEventListener(PAGES_CHANGED_EVENT, onPagesChanged);
    document.addEventListener('mouseover', onIntent, { passive: true });
    document.addEventListener('focusin', onIntent);
    // Hydrated and listening: links now navigate client-side (tests and styles may rely on it).
    document.documentElement.setAttribute('data-hydrated', '');
    return () => {
      document.removeEventListener('click', onClick);
      removeEventListener('popstate', onPopState);
      removeEventListener(PAGES_CHANGED_EVENT, onPagesChanged);
      document.removeEventListener('mouseover', onIntent);
      document.removeEventListener('focusin', onIntent);
    };
  }, [loader, navigate]);

  // Links that scroll into view are prefetched (their data only) when the browser is idle.
  useEffect(() => {
    if (!loader || !prefetchAllowed(connection()) || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        const url = internalUrl(entry.target as HTMLAnchorElement);
        if (url) loader.prefetch(url.pathname, false);
      }
    });
    for (const anchor of document.querySelectorAll<HTMLAnchorElement>('#__docs a[href]')) {
      if (internalUrl(anchor)) observer.observe(anchor);
    }
    return () => observer.disconnect();
  }, [loader, state.view.serial]);

  // While a page loads or has failed to: the tab names it (the page shown again once it is back).
  const pendingTitle = state.main.kind === 'view' ? undefined : state.target?.title;
  const title = pendingTitle ?? state.view.page.title;
  useLayoutEffect(() => {
    if (loader) showPageTitle(pageTitle(title, site.title, site.titleSeparator), site.title);
  }, [loader, site, title]);

  // After a navigation: the description, then the scroll position (before paint).
  useLayoutEffect(() => {
    const { page } = state.view;
    if (!loader) return;
    setDescription(page.description ?? site.tagline);
    const wanted = intent.current;
    intent.current = null;
    if (!wanted) return;
    if (!wanted.hash || !scrollToFragment(wanted.hash)) scrollTo(0, wanted.y ?? 0);
  }, [loader, site, state.view]);

  // After a navigation or a load error is in the DOM: focus back where the reader was (see focus.ts);
  // while the page loads, on the sidebar link pressed when the loading view rebuilt the sidebar.
  useLayoutEffect(() => {
    if (state.main.kind === 'loading') keepFocusInBox(loadingFocus.current);
    restoreFocus(focus.current);
    focus.current = null;
  }, [state.view, state.main]);

  const retry = useCallback(
    (fresh: boolean) => {
      if (fresh) loader?.forget(routeOfPath(location.pathname));
      void navigate(new URL(location.href), 'retry');
    },
    [loader, navigate],
  );
  return { state, retry };
}

/** Keeps `<meta name="description">` in step with the page shown (the site's tagline when the page has none). */
function setDescription(description: string): void {
  let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = 'description';
    document.head.append(meta);
  }
  meta.setAttribute('content', description);
}
