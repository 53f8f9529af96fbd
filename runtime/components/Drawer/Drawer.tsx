import { useEffect, useRef, type JSX } from 'react';
import type { SiteData } from '../../manifest';
import type { SidebarSource } from '../../router/use-router';
import { NavbarEnd, NavItems } from '../Navbar/Navbar';
import { SidebarContent } from '../Sidebar/Sidebar';
import { OPEN_SEARCH_EVENT } from '../../search/SearchButton';
import { SearchIcon } from '../../search/SearchIcon';
import './drawer.css';

export interface DrawerProps {
  site: SiteData;
  route: string;
  /** Route whose section is current, or null (the not-found page). */
  section: string | null;
  sidebar: SidebarSource | null;
  onClose: () => void;
}

/**
 * The menu of narrow screens (below 996 px): the navbar items, then the current sidebar. Rendered only
 * while open, so pages do not carry a second copy of the sidebar. Closes on Escape, on the backdrop and
 * when the route changes (the layout unmounts it).
 */
export function Drawer({ site, route, section, sidebar, onClose }: DrawerProps): JSX.Element {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    close.current?.focus();
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="drawer-root">
      <div className="drawer-backdrop" onClick={onClose} />
      <div className="drawer" role="dialog" aria-modal="true" aria-label="Menu">
        <div className="drawer-header">
          <span className="navbar-title">{site.title}</span>
          <button type="button" className="drawer-close" aria-label="Close the menu" ref={close} onClick={onClose}>
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
          <NavbarEnd site={site} />
        </div>
      </div>
    </div>
  );
}
