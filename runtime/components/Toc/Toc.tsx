import type { JSX } from 'react';
import type { TocEntry } from '../../manifest';

/** The page's table of contents (levels chosen at build time). */
export function Toc({ entries }: { entries: TocEntry[] }): JSX.Element | null {
  if (entries.length === 0) return null;
  return (
    <nav className="toc" aria-label="On this page">
      <p className="toc-title">On this page</p>
      <ul className="toc-list">
        {entries.map((entry) => (
          <li key={entry.id} className={`toc-item toc-level-${entry.level}`}>
            <a className="toc-link" href={`#${entry.id}`}>
              {entry.text}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
