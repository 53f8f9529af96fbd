import type { JSX } from 'react';
import type { NavItem, SiteData } from '../../manifest';
import { isActiveSection } from '../../routing';
import './navbar.css';

export interface NavbarProps {
  site: SiteData;
  /** Current route, for the active item. */
  route: string;
}

/** Top navigation: brand, the section items, and on the right locale, version, repository and log out. */
export function Navbar({ site, route }: NavbarProps): JSX.Element {
  const items = site.navbar;
  return (
    <nav className="navbar" aria-label="Main">
      <div className="navbar-inner">
        <button type="button" className="navbar-toggle" aria-label="Open the menu" aria-expanded="false" data-drawer-toggle="">
          <span aria-hidden="true">☰</span>
        </button>
        <a className="navbar-brand" href="/">
          <span className="navbar-logo" aria-hidden="true" />
          <span className="navbar-title">{site.title}</span>
        </a>
        <ul className="navbar-items">
          {items.map((item: NavItem) => (
            <li key={item.to}>
              <a className={isActiveSection(item, items, route) ? 'navbar-link active' : 'navbar-link'} href={item.to} aria-current={isActiveSection(item, items, route) ? 'page' : undefined}>
                {item.label}
              </a>
            </li>
          ))}
        </ul>
        <div className="navbar-right">
          <select className="navbar-select" aria-label="Language" defaultValue={site.locale}>
            <option value={site.locale}>{site.localeLabel}</option>
          </select>
          <select className="navbar-select" aria-label="Version" defaultValue={site.version.name}>
            <option value={site.version.name}>{site.version.label}</option>
          </select>
          <button type="button" className="theme-toggle" aria-label="Switch between dark and light mode" data-theme-toggle="">
            <span aria-hidden="true" className="theme-icon" />
          </button>
          <a className="navbar-link" href={site.repositoryUrl} target="_blank" rel="noopener noreferrer">
            Repository
          </a>
          <button type="button" className="navbar-link logout" data-logout="">
            Log out
          </button>
        </div>
      </div>
    </nav>
  );
}
