/**
 * Browser entry: hydrates the pre-rendered page and starts the client router. The page body and the
 * sidebar are taken from the DOM, so neither is shipped twice.
 */
// Base styles first: components' own stylesheets come after and may refine them.
import './styles/base.css';
// The markdown components render on the server only; their styles still belong in the page.
import './components/markdown/markdown.css';
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { loadLoginScreen } from './auth/load-login';
import { createAuthSession } from './auth/session';
import { App } from './components/App/App';
import { CrashBoundary } from './components/PageState/PageState';
import { installCopyButtons } from './islands/copy-buttons';
import { loadMermaid } from './islands/load';
import type { HydrationData } from './manifest';
import { currentConnection, RouteLoader } from './router/loader';

const container = document.getElementById('__docs');
const dataElement = document.getElementById('__DOCS_DATA__');
if (container && dataElement) {
  const data = JSON.parse(dataElement.textContent ?? '{}') as HydrationData;
  // Signed out (the head script decided): fetch the login screen while React hydrates.
  if (document.documentElement.getAttribute('data-auth') !== 'in') void loadLoginScreen();
  const html = container.querySelector('#main .markdown')?.innerHTML ?? '';
  const sidebarHtml = container.querySelector('.sidebar')?.innerHTML;
  const session = createAuthSession(data.site);
  // The gated host sent its sign-in shell, so it holds no session for this reader: stored credentials are stale.
  if (data.shell) session.expire();
  /** Behind the gate, a 401 means the session ended: show the login screen rather than an error. */
  const expireOn401 = async (status: number | undefined): Promise<void> => {
    if (!data.site.gated) return;
    const code = status ?? (await fetch(data.manifestUrl, { method: 'HEAD', credentials: 'same-origin' }).then((response) => response.status, () => 0));
    if (code === 401) session.expire();
  };
  const loader = new RouteLoader({
    manifestUrl: data.manifestUrl,
    fetchJson: async (url) => {
      const response = await fetch(url);
      if (!response.ok) {
        await expireOn401(response.status);
        throw new Error(`${url}: HTTP ${response.status}`);
      }
      return response.json() as Promise<unknown>;
    },
    importModule: (url) =>
      (import(url) as Promise<unknown>).catch(async (error: unknown) => {
        await expireOn401(undefined);
        throw error;
      }),
    loadMermaid,
    connection: currentConnection,
  });
  const initial = { page: data.page, html, sidebar: sidebarHtml === undefined ? null : { html: sidebarHtml }, serial: 0 };
  hydrateRoot(
    container,
    <StrictMode>
      {/* The last resort: a crash outside the page's own boundary (the navbar, the gate, a dialog) shows
          the crash screen, whose Try again loads the page anew, where React would leave an empty page. */}
      <CrashBoundary onRetry={() => location.reload()}>
        <App site={data.site} initial={initial} loader={loader} session={session} shell={data.shell} />
      </CrashBoundary>
    </StrictMode>,
  );
  installCopyButtons();
}
