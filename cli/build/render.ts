/**
 * Stage 6, render: a page's full HTML from its data, by React `renderToString` of the layout poured
 * into the template. Pure: the template, asset URLs and data come in, a string goes out.
 */
import { createHash } from 'node:crypto';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { Helmet, HelmetProvider } from 'react-helmet-async';
import { App } from '../../runtime/components/App/App';
import { SidebarNav } from '../../runtime/components/Sidebar/Sidebar';
import { headScriptSource } from '../../runtime/head-script';
import { pageTitle } from '../../runtime/routing';
import type { HydrationData, SidebarItem, SiteData } from '../../runtime/manifest';
import { notFoundPage } from '../../runtime/components/NotFound/NotFound';
import type { PageJobContext } from './page-job';

/** Hashed URLs of the runtime bundle. */
export interface AssetUrls {
  js: string;
  css: string;
  /** Chunks the entry imports statically: preloaded, so the browser fetches them in parallel with it. */
  preload: string[];
  /** The inline head script, minified, with `HEAD_SCRIPT_OPTIONS` where the site's options go (see `headScriptSource`). */
  headScript: string;
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
        // A page without a description of its own is described by the site's tagline.
        createElement('meta', { name: 'description', content: page.description ?? site.tagline }),
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
 * cost of one splice into the link's class list instead of rendering the whole section for every page.
 */
export function sidebarHtml(items: SidebarItem[], route: string): string {
  let template = sidebarTemplates.get(items);
  if (template === undefined) {
    template = renderToString(createElement(SidebarNav, { items, route: '' }));
    sidebarTemplates.set(items, template);
  }
  const href = ` href="${escapeAttribute(route)}">`;
  // The route's link: `<a class="sidebar-link …" href="/route">`, whatever classes it carries.
  const at = template.indexOf(href);
  if (at === -1) return template;
  const classEnd = template.lastIndexOf('"', at - 1);
  return `${template.slice(0, classEnd)} active"${template.slice(classEnd + 1, at)} href="${escapeAttribute(route)}" aria-current="page">${template.slice(at + href.length)}`;
}

/**
 * The page's Content-Security-Policy: scripts only from the site itself, plus the inline head script
 * by its hash (never `'unsafe-inline'` for scripts); calls only to the site and the configured backend.
 * Styles allow inline attributes: highlighted code and diagrams colour their tokens with them.
 */
export function contentSecurityPolicy(headScript: string, backendUrl: string): string {
  const scriptHash = createHash('sha256').update(headScript).digest('base64');
  let backend = '';
  try {
    backend = ` ${new URL(backendUrl).origin}`;
  } catch {
    // A relative or empty backend address is the site itself.
  }
  return [
    "default-src 'self'",
    `script-src 'self' 'sha256-${scriptHash}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    `connect-src 'self'${backend}`,
    "object-src 'none'",
    "frame-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}

/** The slots every page of a site shares, by site object: computed once per thread, not per page. */
const siteSlots = new WeakMap<SiteData, { assets: AssetUrls; slots: Record<string, string> }>();

function sharedSlots(site: SiteData, assets: AssetUrls): Record<string, string> {
  const known = siteSlots.get(site);
  if (known?.assets === assets) return known.slots;
  const headScript = headScriptSource(assets.headScript, {
    themeKey: site.storageKeys.theme,
    announcementKey: site.storageKeys.announcement,
    announcementId: site.announcement?.id,
    codeTabKey: site.storageKeys.codeTab,
    authKey: site.auth.storageKey,
    roles: site.auth.roles,
    siteTitle: site.title,
  });
  const slots = {
    csp: `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(contentSecurityPolicy(headScript, site.app.backendUrl))}" />`,
    lang: site.locale,
    'head-script': headScript,
    css: assets.css,
    js: assets.js,
    preload: assets.preload.map((url) => `<link rel="modulepreload" href="${escapeAttribute(url)}" />`).join(''),
  };
  siteSlots.set(site, { assets, slots });
  return slots;
}

/** The complete HTML document of one page. */
export function renderPage(options: RenderPageOptions): string {
  const { data, template, assets, html } = options;
  const sidebar = options.sidebar && options.sidebar.length > 0 ? { html: sidebarHtml(options.sidebar, data.page.route) } : null;
  const app = renderToString(createElement(App, { site: data.site, initial: { page: data.page, html, sidebar, serial: 0 }, shell: data.shell }));
  const slots: Record<string, string> = { ...sharedSlots(data.site, assets), head: renderHead(data), app, data: scriptJson(data) };
  return template.replace(/<!--docs:([a-z-]+)-->/g, (whole, name: string) => slots[name] ?? whole);
}

/** What a page of the site itself (not of its content) is rendered from. */
type SitePageContext = Pick<PageJobContext, 'site' | 'template' | 'assets' | 'manifestUrl'>;

/**
 * The gated host's sign-in shell: the layout with no page in it — no title but the site's, no
 * sidebar, no text of any page — marked so the head script and the runtime show the login screen.
 */
export function gateShellHtml(context: SitePageContext): string {
  // Nothing of the site's structure or addresses either, which the login screen does not show: no
  // announcement (its text may name pages), no navbar (the sections' labels and routes), no repository,
  // no backend (a gated build logs in at its own origin), no default doc.
  const { site } = context;
  const bare = { ...site, announcement: undefined, navbar: [], repositoryUrl: '', app: { ...site.app, backendUrl: '/' }, version: { ...site.version, mainDocId: '' } };
  const data: HydrationData = { site: bare, page: { ...notFoundPage('/'), title: site.title }, manifestUrl: context.manifestUrl, shell: true };
  return renderPage({ template: context.template, assets: context.assets, data, html: '' }).replace(/<html\b/i, '<html data-gate-shell');
}

/** `404.html`: the not-found page in the same layout, served for every unknown path. */
export function notFoundHtml(context: SitePageContext): string {
  const data: HydrationData = { site: context.site, page: notFoundPage('/404'), manifestUrl: context.manifestUrl };
  return renderPage({ template: context.template, assets: context.assets, data, html: '' });
}
