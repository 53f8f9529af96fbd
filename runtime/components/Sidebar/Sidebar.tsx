import type { JSX, Ref } from 'react';
import type { SidebarItem } from '../../manifest';
import type { SidebarSource } from '../../router/use-router';

export interface SidebarNavProps {
  items: SidebarItem[];
  /** Current route, highlighted. */
  route: string;
}

/** A sidebar tree: every category expanded (they never collapse, spec §2), the current page marked. */
export function SidebarNav({ items, route }: SidebarNavProps): JSX.Element {
  return (
    <nav aria-label="Docs sidebar">
      <SidebarList items={items} route={route} level={1} />
    </nav>
  );
}

function SidebarList({ items, route, level }: SidebarNavProps & { level: number }): JSX.Element {
  return (
    <ul className={`sidebar-list sidebar-level-${level}`}>
      {items.map((item) =>
        item.type === 'doc' ? (
          <li key={item.route} className="sidebar-item">
            <a className={linkClass(item.className, item.route === route)} href={item.route} aria-current={item.route === route ? 'page' : undefined}>
              {item.label}
            </a>
          </li>
        ) : (
          <li key={`${item.label}:${item.route ?? ''}`} className="sidebar-item sidebar-category">
            {item.route ? (
              <a className={linkClass('sidebar-category-label', item.route === route)} href={item.route} aria-current={item.route === route ? 'page' : undefined}>
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

/** `sidebar-link`, the item's own classes, then `active` last (the build marks it by appending). */
function linkClass(extra: string | undefined, active: boolean): string {
  return `sidebar-link${extra ? ` ${extra}` : ''}${active ? ' active' : ''}`;
}

/**
 * The sidebar's content from either source: the pre-rendered HTML the first page arrived with (so
 * hydration never re-renders a whole section), or the manifest's tree after a client-side navigation.
 * Rendered into the element `Tag`, which is the `<aside>` beside the page or a box in the drawer.
 */
export function SidebarContent({ source, route, className, Tag = 'div', ref }: { source: SidebarSource; route: string; className: string; Tag?: 'aside' | 'div'; ref?: Ref<HTMLElement> }): JSX.Element {
  // `data-keeps-focus`: the first navigation rebuilds this box's links; the router puts focus back on
  // the one pressed (router/focus.ts).
  if ('html' in source) return <Tag className={className} ref={ref as Ref<HTMLDivElement>} data-keeps-focus="" dangerouslySetInnerHTML={{ __html: source.html }} />;
  return (
    <Tag className={className} ref={ref as Ref<HTMLDivElement>} data-keeps-focus="">
      <SidebarNav items={source.items} route={route} />
    </Tag>
  );
}

/** Scrolls the sidebar (not the page) so its active link is in view, a third from the top. */
export function revealActiveLink(sidebar: HTMLElement | null): void {
  const link = sidebar?.querySelector('.sidebar-link.active');
  if (!sidebar || !link) return;
  const box = sidebar.getBoundingClientRect();
  const item = link.getBoundingClientRect();
  if (item.top < box.top || item.bottom > box.bottom) sidebar.scrollTop += item.top - box.top - sidebar.clientHeight / 3;
}
