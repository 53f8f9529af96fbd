import type { JSX } from 'react';
import type { PageMeta } from '../../manifest';

/** Title of the not-found page. */
export const NOT_FOUND_TITLE = 'Page not found';

/** The page data of the not-found page shown at `route` (`404.html`, or an unknown client-side path). */
export function notFoundPage(route: string): PageMeta {
  return { route, id: '', title: NOT_FOUND_TITLE, toc: [], hideToc: true, breadcrumbs: [], hasMermaid: false, hasTabs: false, notFound: true };
}

/** The not-found page, in the same layout as every page. */
export function NotFound(): JSX.Element {
  return (
    <main className="doc-main not-found" id="main">
      <article className="doc">
        <header>
          <h1>{NOT_FOUND_TITLE}</h1>
        </header>
        <div className="markdown">
          <p>We could not find what you were looking for.</p>
          <p>
            The page may have moved or been removed. Go back to the <a href="/">internal wiki</a>, or pick a section from the navigation bar.
          </p>
        </div>
      </article>
    </main>
  );
}
