import type { JSX } from 'react';

/**
 * The magnifying glass of the search button, the drawer and the dialog. A module of its own, without
 * the stylesheet: the lazy dialog imports it too, and a stylesheet reached from the dialog's chunk is
 * split by esbuild into a file nothing links.
 */
export function SearchIcon(): JSX.Element {
  return (
    <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
      <path fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" d="m13.5 13.5 4 4M15 8.5a6.5 6.5 0 1 1-13 0 6.5 6.5 0 0 1 13 0Z" />
    </svg>
  );
}
