import { useEffect, type JSX } from 'react';
import { AuthGate } from '../../auth/AuthGate';
import type { AuthSession } from '../../auth/session';
import { loadMermaid, startTabs } from '../../islands/load';
import type { PageMeta, SiteData } from '../../manifest';
import type { RouteLoader } from '../../router/loader';
import { useRouter, type View } from '../../router/use-router';
import { DocPage } from '../DocPage/DocPage';
import { Layout } from '../Layout/Layout';
import { NotFound } from '../NotFound/NotFound';
import { CrashBoundary, PageLoadError, PageLoading } from '../PageState/PageState';
import { ProgressBar } from '../ProgressBar/ProgressBar';
import { Toc } from '../Toc/Toc';

export interface AppProps {
  site: SiteData;
  /** The page the HTML was rendered for. */
  initial: View;
  /** Loads other routes; absent on the server. */
  loader?: RouteLoader;
  /** The reader's session; absent on the server, which renders the page for the signed-in reader. */
  session?: AuthSession;
  /** The gated host's sign-in shell, which holds no page. */
  shell?: boolean;
}

/** One page in the main column: the doc (or not-found page) and its table of contents. */
export function PageView({ page, html, locale }: { page: PageMeta; html: string; locale: string }): JSX.Element {
  return (
    <>
      {page.notFound ? <NotFound /> : <DocPage page={page} html={html} locale={locale} />}
      <div className="toc-column">{page.hideToc ? null : <Toc entries={page.toc} />}</div>
    </>
  );
}

/** The whole site in the browser: the router's view in the layout. Server-rendered with `initial`. */
export function App({ site, initial, loader, session, shell }: AppProps): JSX.Element {
  const { state, retry } = useRouter({ site, initial, loader });
  const { view, main } = state;
  const showsPage = main.kind === 'view';
  const target = showsPage ? undefined : state.target;
  const shown = target ? { route: target.route, notFound: false, sidebar: target.sidebar } : { route: view.page.route, notFound: view.page.notFound === true, sidebar: view.sidebar };

  // Islands: each chunk loads only on pages that need it — mermaid draws the diagrams, the tabs
  // island applies the remembered code-sample tab and handles clicks.
  useEffect(() => {
    if (!showsPage) return;
    const body = document.querySelector('#main .markdown');
    let cancelled = false;
    if (view.page.hasMermaid) void loadMermaid().then((mermaid) => !cancelled && void mermaid.renderDiagrams(body));
    const stopTabs = view.page.hasTabs ? startTabs(body ?? document, site.storageKeys.codeTab) : undefined;
    return () => {
      cancelled = true;
      stopTabs?.();
    };
  }, [view, showsPage, site]);

  const content = (
    <>
      {state.progress ? <ProgressBar /> : null}
      {/* The page being loaded or that failed to, when known, names the section and the sidebar's current link. */}
      <Layout site={site} route={shown.route} notFound={shown.notFound} sidebar={shown.sidebar}>
        {main.kind === 'loading' ? (
          <PageLoading />
        ) : main.kind === 'error' ? (
          <PageLoadError message={main.message} onRetry={() => retry(false)} />
        ) : (
          <CrashBoundary key={view.serial} onRetry={() => retry(true)}>
            <PageView page={view.page} html={view.html} locale={site.locale} />
          </CrashBoundary>
        )}
      </Layout>
    </>
  );
  return (
    <>
      <noscript>
        {site.gated && !shell ? (
          // The gated host sends a page to a reader whose session it checked, and the sign-in shell to
          // anyone else: with JavaScript off the page shows as it was rendered, with what needs it said.
          <>
            <style>{'html:not([data-auth]) .layout{display:block}'}</style>
            <p className="noscript-bar" role="note">
              JavaScript is off: this page reads as it is, but search, the menu on a small screen, diagrams, code tabs and Log out need it.
            </p>
          </>
        ) : (
          // Elsewhere no reader can be signed in without it (the gate hides every page): said, not a blank screen.
          <div className="noscript-notice">
            <p>
              <strong>{site.title} needs JavaScript.</strong> Turn JavaScript on for this site, then reload the page to sign in and read the documentation.
            </p>
          </div>
        )}
      </noscript>
      {session ? (
        <AuthGate site={site} session={session}>
          {content}
        </AuthGate>
      ) : (
        content
      )}
    </>
  );
}
