import type { JSX } from 'react';
import type { PageMeta } from '../../manifest';
import './doc-page.css';

export interface DocPageProps {
  page: PageMeta;
  /** Pre-rendered HTML of the body. */
  html: string;
  locale: string;
}

/** Formats a last-update time the same way on the server and in the browser (UTC, so hydration matches). */
export function formatDate(timestamp: number, locale: string): string {
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
    formats.set(locale, format);
  }
  return format.format(new Date(timestamp));
}

/** Building a DateTimeFormat is costly; one per locale is enough. */
const formats = new Map<string, Intl.DateTimeFormat>();

/** A documentation page: breadcrumbs, title, body, edit link, last update, previous/next. */
export function DocPage({ page, html, locale }: DocPageProps): JSX.Element {
  return (
    <main className="doc-main" id="main">
      {page.breadcrumbs.length > 0 ? (
        <nav className="breadcrumbs" aria-label="Breadcrumbs">
          <ol>
            {page.breadcrumbs.map((crumb) => (
              <li key={`${crumb.label}:${crumb.route}`}>{crumb.route ? <a href={crumb.route}>{crumb.label}</a> : <span>{crumb.label}</span>}</li>
            ))}
            <li aria-current="page">{page.title}</li>
          </ol>
        </nav>
      ) : null}
      {page.hideToc || page.toc.length === 0 ? null : (
        // Below 1200 px, where the TOC column is not shown: the same list, folded (as Docusaurus does).
        // A link followed folds it again.
        <details className="toc-collapsible" onClick={(event) => (event.target as Element).closest('a') && event.currentTarget.removeAttribute('open')}>
          <summary>On this page</summary>
          <nav aria-label="On this page">
            <ul className="toc-list">
              {page.toc.map((entry) => (
                <li key={entry.id} className={`toc-item toc-level-${entry.level}`}>
                  <a className="toc-link" href={`#${entry.id}`}>
                    {entry.text}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </details>
      )}
      <article className="doc">
        {page.heading !== undefined ? (
          <header>
            <h1 dangerouslySetInnerHTML={{ __html: page.heading }} />
          </header>
        ) : page.hideTitle ? null : (
          <header>
            <h1>{page.title}</h1>
          </header>
        )}
        <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />
      </article>
      <footer className="doc-footer">
        {page.editUrl ? (
          <a className="edit-link" href={page.editUrl} target="_blank" rel="noopener noreferrer">
            Edit this page
          </a>
        ) : null}
        {page.lastUpdated ? (
          <span className="last-updated">
            Last updated on <time dateTime={new Date(page.lastUpdated.timestamp).toISOString()}>{formatDate(page.lastUpdated.timestamp, locale)}</time>
            {page.lastUpdated.author ? (
              <>
                {' by '}
                <b>{page.lastUpdated.author}</b>
              </>
            ) : null}
          </span>
        ) : null}
      </footer>
      {page.prev || page.next ? (
        <nav className="pagination" aria-label="Docs pages">
          {page.prev ? (
            <a className="pagination-link pagination-prev" href={page.prev.route} rel="prev">
              <span className="pagination-sub">Previous</span>
              <span className="pagination-label">{page.prev.label}</span>
            </a>
          ) : (
            <span />
          )}
          {page.next ? (
            <a className="pagination-link pagination-next" href={page.next.route} rel="next">
              <span className="pagination-sub">Next</span>
              <span className="pagination-label">{page.next.label}</span>
            </a>
          ) : null}
        </nav>
      ) : null}
    </main>
  );
}
