import { useCallback, useEffect, useRef, useState, type JSX, type ReactNode } from 'react';
import type { SiteData } from '../../manifest';
import type { SidebarSource } from '../../router/use-router';
import { AnnouncementBar } from '../AnnouncementBar/AnnouncementBar';
import { Drawer } from '../Drawer/Drawer';
import { Footer } from '../Footer/Footer';
import { Navbar } from '../Navbar/Navbar';
import { revealActiveLink, SidebarContent } from '../Sidebar/Sidebar';
import './layout.css';

export interface LayoutProps {
  site: SiteData;
  /** Route shown, for the active navbar item and sidebar link. */
  route: string;
  /** True on the not-found page, which belongs to no section: no navbar item is current. */
  notFound?: boolean;
  /** The page's sidebar, or null for a page without one (not found). */
  sidebar: SidebarSource | null;
  /** The main column (page and TOC, or a loading or error state). */
  children: ReactNode;
}

/** The chrome around every page: announcement, navbar, drawer, sidebar, footer. */
export function Layout({ site, route, notFound = false, sidebar, children }: LayoutProps): JSX.Element {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const aside = useRef<HTMLElement>(null);
  const closeDrawer = useCallback(() => setDrawerOpen(false), []);
  useEffect(() => {
    setDrawerOpen(false);
    revealActiveLink(aside.current);
  }, [route, sidebar]);
  return (
    <div className="layout">
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      {site.announcement ? <AnnouncementBar announcement={site.announcement} storageKey={site.storageKeys.announcement} /> : null}
      <Navbar site={site} route={route} section={notFound ? null : route} menuOpen={drawerOpen} onOpenMenu={() => setDrawerOpen(true)} />
      {drawerOpen ? <Drawer site={site} route={route} section={notFound ? null : route} sidebar={sidebar} onClose={closeDrawer} /> : null}
      <div className="main-wrapper">
        {sidebar ? <SidebarContent Tag="aside" className="sidebar" source={sidebar} route={route} ref={aside} /> : null}
        {children}
      </div>
      <Footer title={site.title} tagline={site.tagline} copyright={site.copyright} />
    </div>
  );
}
