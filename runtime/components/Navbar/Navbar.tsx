import type { JSX } from 'react';
import type { NavItem, SiteData } from '../../manifest';
import { isActiveSection } from '../../routing';
import { writeStorage } from '../../storage';
import { toggleTheme } from '../../theme';
import { NavbarDropdown } from './NavbarDropdown';
import './navbar.css';

export interface NavbarProps {
  site: SiteData;
  /** Current route, for the active item. */
  route: string;
  /** Opens the drawer (narrow screens). */
  onOpenMenu: () => void;
  menuOpen: boolean;
}

/** The section links of the navbar; also listed in the drawer. */
export function NavItems({ items, route, className }: { items: NavItem[]; route: string; className: string }): JSX.Element {
  return (
    <ul className={className}>
      {items.map((item) => {
        const active = isActiveSection(item, items, route);
        return (
          <li key={item.to}>
            <a className={active ? 'navbar-link active' : 'navbar-link'} href={item.to} aria-current={active ? 'page' : undefined}>
              {item.label}
            </a>
          </li>
        );
      })}
    </ul>
  );
}

/** The repository link and the Log out item, in the navbar and in the drawer. */
export function NavbarEnd({ site }: { site: SiteData }): JSX.Element {
  return (
    <>
      <a className="navbar-link" href={site.repositoryUrl} target="_blank" rel="noopener noreferrer">
        Repository
      </a>
      <button type="button" className="navbar-link logout" data-logout="">
        Log out
      </button>
    </>
  );
}

/** Top navigation: brand, the section items, and on the right locale, version, colour mode, repository and log out. */
export function Navbar({ site, route, onOpenMenu, menuOpen }: NavbarProps): JSX.Element {
  return (
    <nav className="navbar" aria-label="Main">
      <div className="navbar-inner">
        <button type="button" className="navbar-toggle" aria-label="Open the menu" aria-expanded={menuOpen} onClick={onOpenMenu}>
          <span aria-hidden="true">☰</span>
        </button>
        <a className="navbar-brand" href="/">
          <span className="navbar-logo" aria-hidden="true" />
          <span className="navbar-title">{site.title}</span>
        </a>
        <NavItems items={site.navbar} route={route} className="navbar-items" />
        <div className="navbar-right">
          <NavbarDropdown name="Language" label={site.localeLabel} entries={[{ label: site.localeLabel, href: route, active: true }]} />
          <NavbarDropdown
            name="Version"
            label={site.version.label}
            // The site has one version, so the stored choice can only be that one: it is written, never read back.
            entries={[{ label: site.version.label, href: route, active: true, onSelect: () => writeStorage(site.storageKeys.version, site.version.name) }]}
          />
          <NavbarEnd site={site} />
        </div>
        <button type="button" className="theme-toggle" aria-label="Switch between dark and light mode" onClick={() => toggleTheme(site.storageKeys.theme)}>
          <span aria-hidden="true" className="theme-icon" />
        </button>
      </div>
    </nav>
  );
}
