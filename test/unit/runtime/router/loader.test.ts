import { describe, expect, it } from 'vitest';
import type { Manifest, PageData } from '../../../../runtime/manifest';
import { prefetchAllowed, RouteLoader, type RouteLoaderOptions } from '../../../../runtime/router/loader';
import { isPagePath, normalisePath } from '../../../../runtime/routing';

const manifest: Manifest = {
  version: { name: 'current', label: 'Next', isLast: true, path: '/', mainDocId: 'index' },
  locale: 'en-GB',
  routes: [
    { path: '/guide', id: 'guide/index', sidebar: 'guide', title: 'Guide', data: '/assets/pages/guide.1.js', mermaid: false },
    { path: '/guide/diagrams', id: 'guide/diagrams', sidebar: 'guide', title: 'Diagrams', data: '/assets/pages/guide_diagrams.2.js', mermaid: true },
    { path: '/guide/meeting notes', id: 'guide/meeting notes', sidebar: 'guide', title: 'Meeting notes', data: '/assets/pages/guide_meeting_notes.3.js', mermaid: false },
    { path: '/guide/café', id: 'guide/café', sidebar: 'guide', title: 'Café', data: '/assets/pages/guide_caf_.4.js', mermaid: false },
  ],
  sidebars: { guide: [] },
};

function page(route: string): PageData {
  return { route, id: route.slice(1), title: route, toc: [], hideToc: false, breadcrumbs: [], hasMermaid: false, hasTabs: false, html: '<p>hi</p>' };
}

function loader(overrides: Partial<RouteLoaderOptions> = {}): { loader: RouteLoader; imported: string[]; fetched: string[]; mermaid: number[] } {
  const imported: string[] = [];
  const fetched: string[] = [];
  const mermaid: number[] = [];
  const options: RouteLoaderOptions = {
    manifestUrl: '/manifest.json',
    fetchJson: async (url) => {
      fetched.push(url);
      return manifest;
    },
    importModule: async (url) => {
      imported.push(url);
      return { default: page(url) };
    },
    loadMermaid: async () => mermaid.push(1),
    connection: () => undefined,
    ...overrides,
  };
  return { loader: new RouteLoader(options), imported, fetched, mermaid };
}

describe('runtime/router/loader', () => {
  it('fetches the manifest once and resolves unknown paths to null', async () => {
    const { loader: routes, fetched } = loader();
    expect((await routes.preload('/guide/')).route?.id).toBe('guide/index');
    expect((await routes.preload('/guide/nope')).route).toBeNull();
    expect(fetched).toEqual(['/manifest.json']);
  });

  it('finds routes with spaces and accents from the percent-encoded path a browser reports', async () => {
    const { loader: routes } = loader();
    expect((await routes.preload('/guide/meeting%20notes')).route?.title).toBe('Meeting notes');
    expect((await routes.preload('/guide/caf%C3%A9/')).route?.title).toBe('Café');
    // The accent decomposed (a name copied from macOS): routes are composed.
    expect((await routes.preload('/guide/cafe%CC%81')).route?.title).toBe('Café');
    expect((await routes.preload('/guide/caf%zz')).route).toBeNull();
  });

  it('forgets a failed manifest fetch so the next navigation tries again', async () => {
    let fail = true;
    const { loader: routes } = loader({
      fetchJson: async () => {
        if (fail) throw new Error('offline');
        return manifest;
      },
    });
    await expect(routes.preload('/guide')).rejects.toThrow('offline');
    fail = false;
    expect((await routes.preload('/guide')).route?.path).toBe('/guide');
  });

  it('preloads the diagram chunk only for routes with a diagram', async () => {
    const { loader: routes, mermaid } = loader();
    await routes.preload('/guide');
    expect(mermaid).toEqual([]);
    await routes.preload('/guide/diagrams');
    expect(mermaid).toEqual([1]);
  });

  it('asks for a fresh module URL after a failed load and after forget', async () => {
    let fail = true;
    const imported: string[] = [];
    const { loader: routes } = loader({
      importModule: async (url) => {
        imported.push(url);
        if (fail) throw new Error('Failed to fetch dynamically imported module');
        return { default: page('/guide') };
      },
    });
    const { route } = await routes.preload('/guide');
    // Said in words a reader can act on, not the browser's own.
    await expect(routes.loadPage(route!)).rejects.toThrow("The page's text could not be fetched: the network or the server did not answer (are you offline?). Check the connection, then retry.");
    fail = false;
    await routes.loadPage(route!);
    await routes.loadPage(route!);
    routes.forget('/guide');
    await routes.loadPage(route!);
    expect(imported).toEqual(['/assets/pages/guide.1.js', '/assets/pages/guide.1.js?retry=1', '/assets/pages/guide.1.js?retry=2']);
  });

  it('says the page component has no default export when the chunk exports none', async () => {
    const { loader: routes } = loader({ importModule: async () => ({ page: {} }) });
    const { route } = await routes.preload('/guide');
    await expect(routes.loadPage(route!)).rejects.toThrow('The page component for /guide has no default export');
  });

  it('prefetches nothing on data saver or 2g, and data only unless the reader shows intent', async () => {
    expect(prefetchAllowed(undefined)).toBe(true);
    expect(prefetchAllowed({ effectiveType: '4g' })).toBe(true);
    expect(prefetchAllowed({ saveData: true, effectiveType: '4g' })).toBe(false);
    expect(prefetchAllowed({ effectiveType: '2g' })).toBe(false);
    expect(prefetchAllowed({ effectiveType: 'slow-2g' })).toBe(false);

    const slow = loader({ connection: () => ({ effectiveType: '2g' }) });
    slow.loader.prefetch('/guide', true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect([...slow.fetched, ...slow.imported]).toEqual([]);

    const fast = loader();
    fast.loader.prefetch('/guide/diagrams', false);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fast.imported).toEqual(['/assets/pages/guide_diagrams.2.js']);
    expect(fast.mermaid).toEqual([]);
    fast.loader.prefetch('/guide/diagrams', true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fast.mermaid).toEqual([1]);
  });
});

describe('runtime/routing', () => {
  it('normalises .html, index.html and trailing slashes to the bare path', () => {
    expect(normalisePath('/a/b.html')).toBe('/a/b');
    expect(normalisePath('/a/b/index.html')).toBe('/a/b');
    expect(normalisePath('/a/b/')).toBe('/a/b');
    expect(normalisePath('/index.html')).toBe('/');
    expect(normalisePath('/')).toBe('/');
  });

  it('tells pages from files', () => {
    expect(isPagePath('/backend/onboarding')).toBe(true);
    expect(isPagePath('/backend/onboarding.html')).toBe(true);
    expect(isPagePath('/assets/app.X.js')).toBe(false);
    expect(isPagePath('/manifest.json')).toBe(false);
  });
});
