/**
 * Stage 6, render: a page's full HTML from its data, by React `renderToString` of the layout poured
 * into the template. Pure: the template, asset URLs and data come in, a string goes out.
 */
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { Helmet, HelmetProvider } from 'react-helmet-async';
import { Layout } from '../../runtime/components/Layout/Layout';
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

/** The complete HTML document of one page. */
export function renderPage(options: RenderPageOptions): string {
  const { data, template, assets, html } = options;
  const app = renderToString(createElement(Layout, { data, html, sidebar: options.sidebar && options.sidebar.length > 0 ? { items: options.sidebar } : null }));
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
