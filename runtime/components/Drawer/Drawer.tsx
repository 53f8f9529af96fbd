import { useEffect, useRef, type JSX } from 'react';
import type { SiteData } from '../../manifest';
import type { SidebarSource } from '../../router/use-router';
import { NavbarEnd, NavItems, SiteMenus } from '../Navbar/Navbar';
import { revealActiveLink, SidebarContent } from '../Sidebar/Sidebar';
import { focusPageStart } from '../../router/focus';
import { OPEN_SEARCH_EVENT } from '../../search/SearchButton';
import { SearchIcon } from '../../search/SearchIcon';
import './drawer.css';

/** Where the desktop layout starts, with no drawer (layout.css, drawer.css). */
const DESKTOP = '(min-width: 62.25em)';

export interface DrawerProps {
  site: SiteData;
  route: string;
  /** Route whose section is current, or null (the not-found page). */
  section: string | null;
  sidebar: SidebarSource | null;
  onClose: () => void;
}

/**
 * The menu of narrow screens (below 996 px): the navbar items, the current sidebar, then the language
 * and version menus, the repository and Log out. Rendered only
 * while open, so pages do not carry a second copy of the sidebar. Closes on Escape, on the backdrop and
 * when the route changes (the layout unmounts it).
 */
export function Drawer({ site, route, section, sidebar, onClose }: DrawerProps): JSX.Element {
  const close = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  /** Set when the reader dismisses the drawer (Escape, ×, the backdrop): focus then goes back to what opened it. */
  const dismissed = useRef(false);
  /** The latest `onClose`: the effect below is set up once. */
  const closing = useRef(onClose);
  closing.current = onClose;
  const dismiss = (): void => {
    dismissed.current = true;
    closing.current();
  };
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    close.current?.focus();
    // The page behind stays where it is while the drawer is open, and the drawer opens at the current page.
    document.documentElement.classList.add('drawer-open');
    revealActiveLink(panel.current);
    const onKey = (event: KeyboardEvent): void => {
      // An Escape a menu inside the drawer took (it closed that menu) is not the drawer's.
      if (event.key === 'Escape') {
        if (!event.defaultPrevented) dismiss();
      }
      else if (event.key === 'Tab' && panel.current) {
        // A modal: Tab and Shift+Tab go round the drawer's own controls, never to the page behind.
        const focusable = [...panel.current.querySelectorAll<HTMLElement>('a[href], button, input, [tabindex]:not([tabindex="-1"])')].filter((element) => element.offsetParent !== null);
        const at = focusable.indexOf(document.activeElement as HTMLElement);
        const next = event.shiftKey ? (at <= 0 ? focusable.length - 1 : at - 1) : at === -1 || at === focusable.length - 1 ? 0 : at + 1;
        event.preventDefault();
        focusable[next]?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    // The window widened to the desktop layout (a half-screen window maximised): the drawer is hidden
    // there, and a hidden modal would keep the page locked and Tab trapped. It closes.
    const desktop = window.matchMedia(DESKTOP);
    const onWide = (): void => {
      if (desktop.matches) closing.current();
    };
    desktop.addEventListener('change', onWide);
    return () => {
      desktop.removeEventListener('change', onWide);
      document.removeEventListener('keydown', onKey);
      document.documentElement.classList.remove('drawer-open');
      // After a link in it was followed, the new page has the reader's attention: its main heading
      // takes the focus the drawer took with it (router/focus.ts).
      if (dismissed.current && opener?.isConnected) opener.focus();
      else if (!dismissed.current && (!document.activeElement || document.activeElement === document.body)) focusPageStart();
    };
  }, []);
  return (
    <div className="drawer-root">
      <div className="drawer-backdrop" onClick={dismiss} />
      <div className="drawer" id="docs-drawer" role="dialog" aria-modal="true" aria-label="Menu" ref={panel}>
        <div className="drawer-header">
          <span className="navbar-title">{site.title}</span>
          <button type="button" className="drawer-close" aria-label="Close the menu" ref={close} onClick={dismiss}>
            ×
          </button>
        </div>
        <button
          type="button"
          className="drawer-search"
          onClick={() => {
            onClose();
            dispatchEvent(new Event(OPEN_SEARCH_EVENT));
          }}
        >
          <SearchIcon />
          Search
        </button>
        <NavItems items={site.navbar} route={section} className="drawer-items" />
        {sidebar ? <SidebarContent source={sidebar} route={route} className="drawer-sidebar" /> : null}
        <div className="drawer-end">
          <SiteMenus site={site} route={route} />
          <NavbarEnd site={site} />
        </div>
      </div>
    </div>
  );
}
