import type { JSX } from 'react';
import type { SidebarItem } from '../../manifest';

export interface SidebarProps {
  items: SidebarItem[];
  /** Current route, highlighted. */
  route: string;
}

/** The current section's sidebar: every category expanded, the current page marked. */
export function Sidebar({ items, route }: SidebarProps): JSX.Element {
  return (
    <aside className="sidebar">
      <nav aria-label="Docs sidebar">
        <SidebarList items={items} route={route} level={1} />
      </nav>
    </aside>
  );
}

function SidebarList({ items, route, level }: SidebarProps & { level: number }): JSX.Element {
  return (
    <ul className={`sidebar-list sidebar-level-${level}`}>
      {items.map((item) =>
        item.type === 'doc' ? (
          <li key={item.route} className="sidebar-item">
            <a className={item.route === route ? 'sidebar-link active' : 'sidebar-link'} href={item.route} aria-current={item.route === route ? 'page' : undefined}>
              {item.label}
            </a>
          </li>
        ) : (
          <li key={`${item.label}:${item.route ?? ''}`} className="sidebar-item sidebar-category">
            {item.route ? (
              <a className={item.route === route ? 'sidebar-link sidebar-category-label active' : 'sidebar-link sidebar-category-label'} href={item.route} aria-current={item.route === route ? 'page' : undefined}>
                {item.label}
              </a>
            ) : (
              <span className="sidebar-category-label">{item.label}</span>
            )}
            <SidebarList items={item.items} route={route} level={level + 1} />
          </li>
        ),
      )}
    </ul>
  );
}
