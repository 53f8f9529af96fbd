/**
 * Stage 6, render: a page's full HTML from its data, by React `renderToString` of the layout poured
 * into the template. Pure: the template, asset URLs and data come in, a string goes out.
 */
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { Helmet, HelmetProvider } from 'react-helmet-async';
import { Layout } from '../../runtime/components/Layout/Layout';
import { Sidebar } from '../../runtime/components/Sidebar/Sidebar';
import { headScriptSource } from '../../runtime/head-script';
import type { HydrationData, SidebarItem } from '../../runtime/manifest';

/** Hashed URLs of the runtime bundle. */
export interface AssetUrls {
  js: string;
  css: string;
}

/** Inputs of `renderPage`. */
export interface RenderPageOptions {
  template: string;
  assets: AssetUrls;
  data: HydrationData;
  /** Pre-rendered body HTML. */
  html: string;
  /** The page's sidebar tree, if it has one. */
  sidebar?: SidebarItem[];
}

/** `Page | Docs`; the home page shows the site title alone when the page is titled like the site. */
export function pageTitle(title: string, siteTitle: string, separator: string): string {
  return title === siteTitle ? siteTitle : `${title} ${separator} ${siteTitle}`;
}

/** JSON safe to put inside `<script>`: no `</script>`, no HTML comment openers. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** The head tags of a page, rendered through react-helmet-async. */
function renderHead(data: HydrationData): string {
  const { page, site } = data;
  return renderToString(
    createElement(
      HelmetProvider,
      null,
      createElement(
        Helmet,
        null,
        createElement('title', null, pageTitle(page.title, site.title, site.titleSeparator)),
        page.description ? createElement('meta', { name: 'description', content: page.description }) : null,
        page.notFound ? createElement('meta', { name: 'robots', content: 'noindex' }) : null,
      ),
    ),
  );
}

/** Inner HTML of each sidebar with no item active, by tree: a section's sidebar is rendered once per thread. */
const sidebarTemplates = new WeakMap<SidebarItem[], string>();

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * The sidebar's inner HTML with `route` active: the same bytes React renders for that route, at the
 * cost of two string replacements instead of rendering every item of the section again for every page.
 */
export function sidebarHtml(items: SidebarItem[], route: string): string {
  let template = sidebarTemplates.get(items);
  if (template === undefined) {
    const outer = renderToString(createElement(Sidebar, { items, route: '' }));
    template = outer.slice(outer.indexOf('>') + 1, outer.lastIndexOf('</aside>'));
    sidebarTemplates.set(items, template);
  }
  const href = `href="${escapeAttribute(route)}"`;
  return template
    .replace(`class="sidebar-link" ${href}>`, `class="sidebar-link active" ${href} aria-current="page">`)
    .replace(`class="sidebar-link sidebar-category-label" ${href}>`, `class="sidebar-link sidebar-category-label active" ${href} aria-current="page">`);
}

/** The complete HTML document of one page. */
export function renderPage(options: RenderPageOptions): string {
  const { data, template, assets, html } = options;
  const app = renderToString(createElement(Layout, { data, html, sidebarHtml: options.sidebar && options.sidebar.length > 0 ? sidebarHtml(options.sidebar, data.page.route) : null }));
  const headScript = headScriptSource({
    themeKey: data.site.storageKeys.theme,
    announcementKey: data.site.storageKeys.announcement,
    announcementId: data.site.announcement?.id,
  });
  const slots: Record<string, string> = {
    lang: data.site.locale,
    head: renderHead(data),
    'head-script': headScript,
    css: assets.css,
    js: assets.js,
    app,
    data: scriptJson(data),
  };
  return template.replace(/<!--docs:([a-z-]+)-->/g, (whole, name: string) => slots[name] ?? whole);
}
