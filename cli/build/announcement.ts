/**
 * The announcement bar's HTML (`announcement.content` in site.config.ts), which every page shows as it
 * is: held to the rules of a page's raw HTML (plugins/raw-html.ts, plugins/safe-urls.ts) — the same
 * allowlist of elements and attributes, with a warning for each element and event handler removed, no
 * URL with a scheme outside `http`, `https`, `mailto`, `tel` — its images copied like a page's, and its
 * links to the site's own pages checked like a page's: a bar on every page that points at a page no
 * longer there fails the build, one to a heading a page no longer has warns. So does a navbar item
 * leading to no page.
 */
import type { Element, Root } from 'hast';
import { raw } from 'hast-util-raw';
import { sanitize } from 'hast-util-sanitize';
import { toHtml } from 'hast-util-to-html';
import type { SiteData } from '../../runtime/manifest';
import { decodePercent } from '../../runtime/routing';
import type { Diagnostic } from '../util/errors';
import { missingAnchor, type PageLinks } from './links';
import type { ResolvedFile } from './markdown/index';
import { askingRoutes } from './markdown/route-lookups';
import { RAW_HTML_SCHEMA, removedElements, removedHandlers } from './markdown/plugins/raw-html';
import { browserRoute, disguisedLink, linkResolver, otherSite } from './markdown/plugins/links';
import { removeUnsafeUrls, schemeOf } from './markdown/plugins/safe-urls';
import { walk, type WalkNode } from './markdown/walk';

/** Where the announcement's problems are reported. */
const AT = { file: 'site.config.ts', pointer: '/announcement/content' };

/** How the announcement's images are published: as a page's are (page-job.ts), below the content folder. */
export interface AnnouncementImages {
  /** Copies the image at `rel` below the content folder and gives its public URL, as a page's `resolveImage`. */
  resolve: (rel: string) => ResolvedFile;
  /** Prefix of the content folder for messages, e.g. `content/`. */
  displayPrefix: string;
}

/** What `checkAnnouncement` finds. */
export interface CheckedAnnouncement {
  /** The site with its announcement's HTML cleaned and its images' URLs published. */
  site: SiteData;
  warnings: Diagnostic[];
  errors: Diagnostic[];
  /** Its links to a heading of a page (`/guide/faq#setup`), for `announcementAnchors` once the pages are rendered. */
  anchors: { written: string; route: string; hash: string }[];
}

/**
 * `site` with its announcement's HTML cleaned, the problems found (unsafe URLs and removed elements
 * warn, links to routes that do not exist and relative or unpublishable images are errors), for a
 * site whose pages have `routes`.
 */
export function checkAnnouncement(site: SiteData, routes: ReadonlySet<string>, images?: AnnouncementImages): CheckedAnnouncement {
  const warnings: Diagnostic[] = [];
  // The navbar is on every page too: a section it names must be a page.
  const errors: Diagnostic[] = site.navbar.flatMap((item, i) => {
    if (!item.to.startsWith('/') || item.to.startsWith('//')) return [];
    const route = browserRoute(item.to.replace(/[?#].*$/, ''), '/');
    return routes.has(route) ? [] : [{ file: 'site.config.ts', pointer: `/navbar/${i}/to`, message: `the navbar item "${item.label}" leads to ${item.to}, and no page has the route ${route}`, fix: 'point it at a page that exists, or remove the item' }];
  });
  const anchors: CheckedAnnouncement['anchors'] = [];
  const announcement = site.announcement;
  if (!announcement) return { site, warnings, errors, anchors };
  const parsed = raw({ type: 'root', children: [{ type: 'raw', value: announcement.content }] } as Root) as Root;
  const found: Diagnostic[] = [];
  removeUnsafeUrls(parsed, AT.file, found);
  const elements: Element[] = [];
  walk(parsed as unknown as WalkNode, (node) => void (node.type === 'element' && elements.push(node as unknown as Element)));
  found.push(...removedElements(elements, AT.file, announcement.content, found, 'the announcement'), ...removedHandlers(elements, AT.file, 'the announcement runs no scripts, as no page does'));
  // The line and column are the HTML string's, not the config file's: the pointer says where it is.
  for (const { message, fix } of found) warnings.push({ ...AT, message, fix });
  const clean = sanitize(parsed, RAW_HTML_SCHEMA) as Root;
  const imageProblems = { warnings: [] as Diagnostic[], errors: [] as Diagnostic[] };
  // Rel '' puts the "page" at the root: only absolute paths reach the resolver (a relative one is refused first).
  const resolver = images && linkResolver({ rel: '', displayPrefix: images.displayPrefix, routes: askingRoutes({ routeOfFile: {}, routes: new Set() }), resolveImage: images.resolve, resolveFile: () => undefined, links: [], ...imageProblems });
  walk(clean as unknown as WalkNode, (node) => {
    if (node.type !== 'element') return;
    const properties = (node as unknown as Element).properties;
    // A browser takes a URL attribute without the spaces around it (`src=" /img/a.png"` is /img/a.png).
    const src = typeof properties.src === 'string' ? properties.src.trim() : undefined;
    if ((node as unknown as Element).tagName === 'img' && typeof src === 'string' && src !== '' && schemeOf(src) === undefined) {
      // The bar is on every page: a relative image (`./x.png`) would load from somewhere else on each.
      if (!src.startsWith('/')) errors.push({ ...AT, message: `image "${src}" is relative: the announcement is on every page, so it would load from a different address on each`, fix: 'give its path from the content folder, e.g. /img/banner.png (it is copied as a page\'s image is), or its full URL' });
      else if (resolver) properties.src = resolver.image(src, {});
    }
    const href = typeof properties.href === 'string' ? properties.href.trim() : undefined;
    if (href === undefined || href === '' || href.startsWith('#') || schemeOf(href) !== undefined) return;
    const disguised = disguisedLink(href, '/');
    if (disguised) return void errors.push({ ...AT, message: `link to "${href}" ${disguised.message}`, fix: disguised.fix });
    if (otherSite(href, '/') !== undefined) return;
    // The bar is on every page: a relative link (`./install`) would lead somewhere else on each.
    if (!href.startsWith('/')) return void errors.push({ ...AT, message: `link to "${href}" is relative: the announcement is on every page, so it would lead somewhere else on each`, fix: 'link from the root of the site, e.g. /guide/install' });
    const route = browserRoute(href.replace(/[?#].*$/, ''), '/');
    if (!routes.has(route)) return void errors.push({ ...AT, message: `broken link → ${href}: no page has the route ${route}`, fix: 'link to a page that exists (the announcement is on every page), or change the announcement' });
    const hash = href.includes('#') ? decodePercent(href.slice(href.indexOf('#') + 1)) : '';
    if (hash !== '') anchors.push({ written: href, route, hash });
  });
  for (const problem of imageProblems.errors) errors.push({ ...AT, message: problem.message, fix: problem.fix });
  // (A missing image is left as written, as on a page; the page's fix, "link it relatively", is no fix here.)
  for (const problem of imageProblems.warnings) warnings.push({ ...AT, message: problem.message, fix: 'put the image at that path below the content folder, or give its full URL' });
  const content = toHtml(clean);
  return { site: content === announcement.content ? site : { ...site, announcement: { ...announcement, content } }, warnings, errors, anchors };
}

/** Warnings for the announcement's links to a heading that the page they name does not have, as a page's links get (links.ts). */
export function announcementAnchors(anchors: CheckedAnnouncement['anchors'], pages: PageLinks[]): Diagnostic[] {
  if (anchors.length === 0) return [];
  const idsOf = new Map(pages.map((page) => [page.route, page.ids]));
  return anchors.flatMap((anchor) => {
    const missing = missingAnchor(anchor, anchor.route, idsOf.get(anchor.route));
    return missing ? [{ ...AT, ...missing }] : [];
  });
}

