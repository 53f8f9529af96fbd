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

/**
 * The navbar item of the section each route is in, as `isActiveSection` finds it, with the sections
 * looked up once: a build asks it of every page (10,000 × every item × every item was 20 ms).
 */
export function sectionItemOf(items: NavItem[]): (route: string) => NavItem | undefined {
  const owners = new Map<string, NavItem>();
  for (const item of items) if (item.to !== '/' && !owners.has(sectionOf(item.to))) owners.set(sectionOf(item.to), item);
  const root = items.find((item) => item.to === '/');
  return (route) => owners.get(sectionOf(route)) ?? root;
}

/** `/a/b/index.html`, `/a/b.html` and `/a/b/` → `/a/b`. */
export function normalisePath(path: string): string {
  const bare = path.replace(/\/index\.html?$/i, '/').replace(/\.html?$/i, '').replace(/\/+$/, '');
  return bare === '' ? '/' : bare;
}

/**
 * The route a URL path shows: normalised, percent-escapes decoded (`/guide/caf%C3%A9` → `/guide/café`),
 * accented letters composed (NFC), as every route is (`/guide/cafe%CC%81` → `/guide/café`).
 */
export function routeOfPath(pathname: string): string {
  return normalisePath(decodePercent(pathname)).normalize('NFC');
}

/** `Page | Docs`; a page titled like the site shows the site title alone. */
export function pageTitle(title: string, siteTitle: string, separator: string): string {
  return title === siteTitle ? siteTitle : `${title} ${separator} ${siteTitle}`;
}

/**
 * True when a same-origin path names a page rather than a file: no extension, or `.html`.
 * `/assets/app.js`, `/manifest.json` and images are left to the browser.
 */
export function isPagePath(pathname: string): boolean {
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return !last.includes('.') || /\.html?$/i.test(last);
}

/** A percent-decoded URL part; a malformed escape (`100%`, `%zz`) is taken as written instead of throwing. */
export function decodePercent(text: string, decode: (text: string) => string = decodeURIComponent): string {
  try {
    return decode(text);
  } catch {
    return text;
  }
}

/** Scrolls the element a `#fragment` names into view (its scroll margin clears the navbar); false when the page has none. */
export function scrollToFragment(hash: string): boolean {
  const target = fragmentElement(hash);
  target?.scrollIntoView();
  return target !== null;
}

/** The element a URL's `#fragment` names (percent-escapes decoded), if the page has one. */
export function fragmentElement(hash: string): HTMLElement | null {
  return hash.length > 1 ? document.getElementById(decodePercent(hash.slice(1))) : null;
}
