/** Route helpers shared by the server render and the browser. */
import type { NavItem } from './manifest';

/** First path segment of a route (`/backend/onboarding` → `backend`, `/` → ``). */
export function sectionOf(route: string): string {
  return route.split('/')[1] ?? '';
}

/**
 * True when `item` is the navbar item of the section `route` is in: the item whose route shares the
 * route's first segment, or the `/` item for routes no other item claims (the internal wiki).
 */
export function isActiveSection(item: NavItem, items: NavItem[], route: string): boolean {
  const section = sectionOf(route);
  const owner = items.find((candidate) => candidate.to !== '/' && sectionOf(candidate.to) === section);
  if (owner) return owner === item;
  return item.to === '/';
}

/** `/a/b/index.html`, `/a/b.html` and `/a/b/` → `/a/b`. */
export function normalisePath(path: string): string {
  const bare = path.replace(/\/index\.html?$/i, '/').replace(/\.html?$/i, '').replace(/\/+$/, '');
  return bare === '' ? '/' : bare;
}
