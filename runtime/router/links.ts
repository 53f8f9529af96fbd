/** Which clicks and hovers the client router handles, and which it leaves to the browser. */
import { isPagePath } from '../routing';

/** The anchor an event happened on, if any. */
export function anchorOf(event: Event): HTMLAnchorElement | null {
  const target = event.target instanceof Element ? event.target : null;
  return target?.closest<HTMLAnchorElement>('a[href]') ?? null;
}

/**
 * The URL of a page on this site the anchor points to, or null when the browser should follow it:
 * another origin, a new tab or download, a file (`/assets/…`, `/manifest.json`), or a link into the
 * shadow of the router such as `rel="external"`.
 */
export function internalUrl(anchor: HTMLAnchorElement): URL | null {
  if (anchor.hasAttribute('download') || (anchor.target && anchor.target !== '_self') || /\bexternal\b/.test(anchor.rel)) return null;
  const url = new URL(anchor.href, location.href);
  if (url.origin !== location.origin || !isPagePath(url.pathname)) return null;
  return url;
}

/** True for a plain left click: no modifier that asks for a new tab or window, not already handled. */
export function isPlainClick(event: MouseEvent): boolean {
  return !event.defaultPrevented && event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}
