import type { JSX } from 'react';
import type { HydrationData } from '../../manifest';
import { AnnouncementBar } from '../AnnouncementBar/AnnouncementBar';
import { DocPage } from '../DocPage/DocPage';
import { Footer } from '../Footer/Footer';
import { Navbar } from '../Navbar/Navbar';
import { NotFound } from '../NotFound/NotFound';
import { Toc } from '../Toc/Toc';
import './layout.css';

export interface LayoutProps {
  data: HydrationData;
  /** Pre-rendered HTML of the page body. */
  html: string;
  /**
   * Inner HTML of the sidebar (`<nav>…</nav>`), or null for a page without one. The server renders it
   * once per section (cli/build/render.ts `sidebarHtml`); hydration takes it from the DOM.
   */
  sidebarHtml: string | null;
}

/** The whole page chrome around one page; rendered on the server and hydrated in the browser. */
export function Layout({ data, html, sidebarHtml }: LayoutProps): JSX.Element {
  const { site, page } = data;
  return (
    <div className="layout">
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      {site.announcement ? <AnnouncementBar announcement={site.announcement} /> : null}
      <Navbar site={site} route={page.route} />
      <div className="main-wrapper">
        {sidebarHtml === null ? null : <aside className="sidebar" dangerouslySetInnerHTML={{ __html: sidebarHtml }} />}
        {page.notFound ? <NotFound /> : <DocPage page={page} html={html} locale={site.locale} />}
        <div className="toc-column">{page.hideToc ? null : <Toc entries={page.toc} />}</div>
      </div>
      <Footer copyright={site.copyright} />
    </div>
  );
}
