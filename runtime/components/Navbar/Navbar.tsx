import type { JSX } from 'react';
import type { NavItem, SiteData } from '../../manifest';
import { isActiveSection } from '../../routing';
import { writeStorage } from '../../storage';
import { toggleTheme } from '../../theme';
import { NavbarDropdown } from './NavbarDropdown';
import './navbar.css';

export interface NavbarProps {
  site: SiteData;
  /** Current route (the locale and version menus link to it). */
  route: string;
  /** Route whose section is current, or null when none is (the not-found page). */
  section: string | null;
  /** Opens the drawer (narrow screens). */
  onOpenMenu: () => void;
  menuOpen: boolean;
}

/** The section links of the navbar; also listed in the drawer. */
export function NavItems({ items, route, className }: { items: NavItem[]; route: string | null; className: string }): JSX.Element {
  return (
    <ul className={className}>
      {items.map((item) => {
        const active = route !== null && isActiveSection(item, items, route);
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

/**
 * The repository link and the Log out item, in the navbar and in the drawer. In the navbar the
 * repository is an icon (named for screen readers and on hover): seven sections, two menus and the
 * rest must fit from 996 px, the width of most laptops once a scrollbar is counted.
 */
export function NavbarEnd({ site, compact = false }: { site: SiteData; compact?: boolean }): JSX.Element {
  return (
    <>
      {compact ? (
        <a className="navbar-link navbar-icon" href={site.repositoryUrl} target="_blank" rel="noopener noreferrer" aria-label="Repository" title="Repository">
          <svg viewBox="0 0 16 16" width="18" height="18" aria-hidden="true" focusable="false">
            <path
              fill="currentColor"
              d="M8 0a8 8 0 0 0-2.53 15.59c.4.07.55-.17.55-.38v-1.34c-2.23.48-2.7-1.07-2.7-1.07-.36-.93-.89-1.17-.89-1.17-.73-.5.05-.49.05-.49.8.06 1.23.83 1.23.83.72 1.22 1.87.87 2.33.67.07-.52.28-.87.5-1.07-1.78-.2-3.64-.89-3.64-3.95 0-.87.31-1.59.82-2.15-.08-.2-.36-1.02.08-2.12 0 0 .67-.21 2.2.82a7.6 7.6 0 0 1 4 0c1.53-1.04 2.2-.82 2.2-.82.44 1.1.16 1.92.08 2.12.51.56.82 1.28.82 2.15 0 3.07-1.87 3.75-3.65 3.95.29.25.54.73.54 1.48v2.2c0 .21.15.46.55.38A8 8 0 0 0 8 0Z"
            />
          </svg>
        </a>
      ) : (
        <a className="navbar-link" href={site.repositoryUrl} target="_blank" rel="noopener noreferrer">
          Repository
        </a>
      )}
      <button type="button" className="navbar-link logout" data-logout="">
        Log out
      </button>
    </>
  );
}

/** Top navigation: brand, the section items, and on the right locale, version, colour mode, repository and log out. */
export function Navbar({ site, route, section, onOpenMenu, menuOpen }: NavbarProps): JSX.Element {
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
        <NavItems items={site.navbar} route={section} className="navbar-items" />
        <div className="navbar-right">
          <NavbarDropdown name="Language" label={site.localeLabel} shortLabel={site.locale} entries={[{ label: site.localeLabel, href: route, active: true }]} />
          <NavbarDropdown
            name="Version"
            label={site.version.label}
            // The site has one version, so the stored choice can only be that one: it is written, never read back.
            entries={[{ label: site.version.label, href: route, active: true, onSelect: () => writeStorage(site.storageKeys.version, site.version.name) }]}
          />
          <NavbarEnd site={site} compact />
        </div>
        <button type="button" className="theme-toggle" aria-label="Switch between dark and light mode" onClick={() => toggleTheme(site.storageKeys.theme)}>
          <span aria-hidden="true" className="theme-icon" />
        </button>
      </div>
    </nav>
  );
}
