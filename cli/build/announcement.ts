/**
 * The announcement bar's HTML (`announcement.content` in site.config.ts), which every page shows as it
 * is: held to the rules of a page's raw HTML (plugins/raw-html.ts, plugins/safe-urls.ts) — the same
 * allowlist of elements and attributes, no URL with a scheme outside `http`, `https`, `mailto`, `tel` —
 * and its links to the site's own pages checked like a page's: a bar on every page that points at a
 * page no longer there fails the build. So does a navbar item leading to no page.
 */
import type { Element, Root } from 'hast';
import { raw } from 'hast-util-raw';
import { sanitize } from 'hast-util-sanitize';
import { toHtml } from 'hast-util-to-html';
import type { SiteData } from '../../runtime/manifest';
import type { Diagnostic } from '../util/errors';
import { RAW_HTML_SCHEMA } from './markdown/plugins/raw-html';
import { browserRoute, disguisedLink, otherSite } from './markdown/plugins/links';
import { removeUnsafeUrls, schemeOf } from './markdown/plugins/safe-urls';
import { walk, type WalkNode } from './markdown/walk';

/** Where the announcement's problems are reported. */
const AT = { file: 'site.config.ts', pointer: '/announcement/content' };

/**
 * `site` with its announcement's HTML cleaned, the problems found (unsafe URLs warn, links to routes
 * that do not exist are errors), for a site whose pages have `routes`.
 */
export function checkAnnouncement(site: SiteData, routes: ReadonlySet<string>): { site: SiteData; warnings: Diagnostic[]; errors: Diagnostic[] } {
  const warnings: Diagnostic[] = [];
  // The navbar is on every page too: a section it names must be a page.
  const errors: Diagnostic[] = site.navbar.flatMap((item, i) => {
    if (!item.to.startsWith('/') || item.to.startsWith('//')) return [];
    const route = browserRoute(item.to.replace(/[?#].*$/, ''), '/');
    return routes.has(route) ? [] : [{ file: 'site.config.ts', pointer: `/navbar/${i}/to`, message: `the navbar item "${item.label}" leads to ${item.to}, and no page has the route ${route}`, fix: 'point it at a page that exists, or remove the item' }];
  });
  const announcement = site.announcement;
  if (!announcement) return { site, warnings, errors };
  const parsed = raw({ type: 'root', children: [{ type: 'raw', value: announcement.content }] } as Root) as Root;
  const found: Diagnostic[] = [];
  removeUnsafeUrls(parsed, AT.file, found);
  // The line and column are the HTML string's, not the config file's: the pointer says where it is.
  for (const { message, fix } of found) warnings.push({ ...AT, message, fix });
  const clean = sanitize(parsed, RAW_HTML_SCHEMA) as Root;
  walk(clean as unknown as WalkNode, (node) => {
    if (node.type !== 'element') return;
    const href = (node as unknown as Element).properties.href;
    if (typeof href !== 'string' || href === '' || href.startsWith('#') || schemeOf(href) !== undefined) return;
    const disguised = disguisedLink(href, '/');
    if (disguised) return void errors.push({ ...AT, message: `link to "${href}" ${disguised.message}`, fix: disguised.fix });
    if (otherSite(href, '/') !== undefined) return;
    // The bar is on every page: a relative link (`./install`) would lead somewhere else on each.
    if (!href.startsWith('/')) return void errors.push({ ...AT, message: `link to "${href}" is relative: the announcement is on every page, so it would lead somewhere else on each`, fix: 'link from the root of the site, e.g. /guide/install' });
    const route = browserRoute(href.replace(/[?#].*$/, ''), '/');
    if (!routes.has(route)) errors.push({ ...AT, message: `broken link → ${href}: no page has the route ${route}`, fix: 'link to a page that exists (the announcement is on every page), or change the announcement' });
  });
  const content = toHtml(clean);
  return { site: content === announcement.content ? site : { ...site, announcement: { ...announcement, content } }, warnings, errors };
}
