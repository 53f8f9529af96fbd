/**
 * Where keyboard focus goes when the router changes the page. One rule for every navigation:
 *
 * - focus stays on what had it when that is still there after the change (a navbar link, a sidebar
 *   link — also when the sidebar was rebuilt, as on the first navigation after a full load, which
 *   swaps the pre-rendered sidebar for the manifest's tree: the link to the same address takes it);
 * - focus that went away with the old page (a link in its body, its table of contents, the Retry
 *   button, the drawer that closes) goes to the new page's main heading, where "Skip to main content"
 *   leads, so a screen reader reads the new title and Tab goes on through the new page, never from
 *   the top of the document (which is where `<body>` would send it);
 * - except where the new page is not shown from its top: a link to a section focuses that section's
 *   heading, and a page shown scrolled (back or forward to where the reader was) the heading of the
 *   section in view, so Tab goes on from what the reader sees, not from the title far above it.
 */
import { fragmentElement } from '../routing';

/** The focused element when a navigation started, and the box around it that outlives the change. */
export interface FocusSnapshot {
  element: HTMLElement;
  /** `href` of the focused link, to find it again in a rebuilt box. */
  href: string | null;
  /** The nearest `[data-keeps-focus]` box around it (a sidebar), null when there is none. */
  box: HTMLElement | null;
}

/** Attribute of a box whose links stay across navigations even when its DOM is rebuilt (the sidebars). */
export const KEEPS_FOCUS = 'data-keeps-focus';

/** What has focus now, or null when nothing does (`<body>`). */
export function takeFocusSnapshot(): FocusSnapshot | null {
  const element = document.activeElement;
  if (!(element instanceof HTMLElement) || element === document.body) return null;
  return { element, href: element.getAttribute('href'), box: element.closest<HTMLElement>(`[${KEEPS_FOCUS}]`) };
}

/**
 * After the new page is in the DOM: gives focus back when the change took it away (the element of
 * `snapshot` is gone and nothing else has taken focus since), as the module comment says.
 */
export function restoreFocus(snapshot: FocusSnapshot | null): void {
  if (!snapshot || snapshot.element.isConnected) return;
  if (document.activeElement && document.activeElement !== document.body) return;
  const same = sameLink(snapshot);
  if (same) same.focus({ preventScroll: true });
  else focusPageStart();
}

/**
 * While the page loads (a navigation slower than the progress bar's delay): when the loading view
 * rebuilt the box that held focus — the first navigation's sidebar, the manifest's tree with the page
 * being loaded marked — the link to the same address takes focus now, not once the page comes (Tab
 * meanwhile went on from the top of the document). Focus that went with the old page waits for the
 * new one (`restoreFocus`).
 */
export function keepFocusInBox(snapshot: FocusSnapshot | null): void {
  if (!snapshot || snapshot.element.isConnected) return;
  if (document.activeElement && document.activeElement !== document.body) return;
  sameLink(snapshot)?.focus({ preventScroll: true });
}

/** The link to the snapshot's address in its box, when the box outlived the change and has one. */
function sameLink(snapshot: FocusSnapshot): HTMLElement | undefined {
  if (snapshot.href === null || !snapshot.box?.isConnected) return undefined;
  return [...snapshot.box.querySelectorAll<HTMLElement>('a[href]')].find((link) => link.getAttribute('href') === snapshot.href);
}

/**
 * Focuses where the reader is on the page shown, without scrolling (the router scrolls): the section
 * the address's `#fragment` names, when the page has it (a link to `/guide/faq#setup`: Tab goes on
 * from that section, not from the top); on a page shown scrolled, the heading of the section in view;
 * else the page's main heading (or its `<main>`).
 */
export function focusPageStart(): void {
  const main = document.getElementById('main');
  const section = fragmentElement(location.hash);
  const target = (section && main?.contains(section) ? section : null) ?? (main && scrollY > 0 ? headingInView(main) : null) ?? main?.querySelector<HTMLElement>('h1') ?? main;
  if (!target) return;
  // Focusable by script only, so Tab does not stop on it (base.css gives it no focus ring).
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
}

/** Where a heading counts as the one being read: in the top quarter of the window, or above it. */
const READING_LINE = 0.25;

/** The heading of the section in view: the last one at or above the reading line; null when every heading is below it. */
function headingInView(main: HTMLElement): HTMLElement | null {
  let found: HTMLElement | null = null;
  for (const heading of main.querySelectorAll<HTMLElement>('h1, h2, h3, h4, h5, h6')) {
    if (heading.getBoundingClientRect().top > innerHeight * READING_LINE) break;
    found = heading;
  }
  return found;
}
