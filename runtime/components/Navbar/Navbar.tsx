import type { JSX } from 'react';
import type { NavItem, SiteData } from '../../manifest';
import { isActiveSection } from '../../routing';
import { writeStorage } from '../../storage';
import { toggleTheme, useColourMode } from '../../theme';
import { NavbarDropdown } from './NavbarDropdown';
import { SearchButton } from '../../search/SearchButton';
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
          {/* A branch: the repository lives on Forgejo, not GitHub, so no vendor's logo. */}
          <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
            <path fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" d="M6 3v12m12-6a9 9 0 0 1-9 9M21 6a3 3 0 1 1-6 0 3 3 0 0 1 6 0ZM9 18a3 3 0 1 1-6 0 3 3 0 0 1 6 0Z" />
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

/** The language and version menus, in the navbar and in the drawer. */
export function SiteMenus({ site, route }: { site: SiteData; route: string }): JSX.Element {
  return (
    <>
      <NavbarDropdown name="Language" label={site.localeLabel} shortLabel={site.locale} entries={[{ label: site.localeLabel, href: route, active: true }]} />
      <NavbarDropdown
        name="Version"
        label={site.version.label}
        // The site has one version, so the stored choice can only be that one: it is written, never read back.
        entries={[{ label: site.version.label, href: route, active: true, onSelect: () => writeStorage(site.storageKeys.version, site.version.name) }]}
      />
    </>
  );
}

/** The colour-mode switch; its name says the mode in force once the runtime knows it (as Docusaurus' does). */
function ThemeToggle({ storageKey }: { storageKey: string }): JSX.Element {
  const mode = useColourMode();
  const label = mode === undefined ? 'Switch between dark and light mode' : `Switch to ${mode === 'dark' ? 'light' : 'dark'} mode (currently ${mode} mode)`;
  return (
    <button type="button" className="theme-toggle" aria-label={label} title={label} onClick={() => toggleTheme(storageKey)}>
      <span aria-hidden="true" className="theme-icon" />
    </button>
  );
}

/** Top navigation: brand, the section items, and on the right locale, version, colour mode, repository and log out. */
export function Navbar({ site, route, section, onOpenMenu, menuOpen }: NavbarProps): JSX.Element {
  return (
    <nav className="navbar" aria-label="Main">
      <div className="navbar-inner">
        <button type="button" className="navbar-toggle" aria-label="Open the menu" aria-expanded={menuOpen} aria-controls={menuOpen ? 'docs-drawer' : undefined} onClick={onOpenMenu}>
          <span aria-hidden="true">☰</span>
        </button>
        <a className="navbar-brand" href="/">
          <span className="navbar-logo" aria-hidden="true" />
          <span className="navbar-title">{site.title}</span>
        </a>
        <NavItems items={site.navbar} route={section} className="navbar-items" />
        <SearchButton />
        <div className="navbar-right">
          <SiteMenus site={site} route={route} />
          <NavbarEnd site={site} compact />
        </div>
        <ThemeToggle storageKey={site.storageKeys.theme} />
      </div>
    </nav>
  );
}
