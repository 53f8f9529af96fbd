/**
 * remark plugin: rewrites relative `.md` links to routes, local images to their hashed asset URLs,
 * and records every internal link with its line so the links stage can check it against all routes.
 */
import type { Root } from 'mdast';
import type { Definition, Image, Link } from 'mdast';
import { decodePercent, normalisePath } from '../../../../runtime/routing';
import { walk } from '../walk';
import type { Diagnostic } from '../../../util/errors';
import type { ResolvedFile } from '../index';
import { schemeOf, withoutLeadingSpace } from './safe-urls';
import { isPagePath } from '../../file-names';
import type { RouteAnswers } from '../route-lookups';

/** What to do about a link in the content that leads to a file outside the repository (`publishableRoots`). */
const LEADS_OUT_FIX = 'copy the file into the content folder: a build publishes only files of the repository that holds the site';

/** The fix for a linked file that is there but cannot be copied. */
const UNPUBLISHABLE_FIX = 'link a regular file you may read (a large one is better linked at its full URL), or correct the path';

/** An internal link found on a page, checked once every route is known. */
export interface FoundLink {
  /** File the link is in, as shown in messages. */
  file: string;
  /** Target route without hash (`''` for a link to an anchor on the same page). */
  route: string;
  /** Anchor without `#`, if any. */
  hash?: string;
  line?: number;
  column?: number;
  /** The link as written. */
  written: string;
  /** The route the link names when read relative to the file (as a code host shows it), when that is not `route`. */
  fileRelative?: string;
}

export interface LinksOptions {
  /** Path of the page below the content folder. */
  rel: string;
  /** Prefix of the content folder for messages. */
  displayPrefix: string;
  /** The site's routes, as the page's links ask about them (route-lookups.ts). */
  routes: RouteAnswers;
  /** Copies a local image (path below the content folder) and returns its public URL (markdown/index.ts `ResolvedFile`). */
  resolveImage: (rel: string) => ResolvedFile;
  /** Copies any other local file a link names, the same way. */
  resolveFile: (rel: string) => ResolvedFile;
  /** Receives the links found. */
  links: FoundLink[];
  warnings: Diagnostic[];
  errors: Diagnostic[];
}

/** Any origin: only the path of a resolved URL is used. */
const BASE = 'http://docs.invalid';

/** `url` split into path, query (with its `?`) and hash (decoded, without `#`). */
function splitUrl(url: string): { path: string; query: string; hash?: string; rawHash: string } {
  const hashAt = url.indexOf('#');
  const beforeHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const rawHash = hashAt === -1 ? '' : url.slice(hashAt);
  const queryAt = beforeHash.indexOf('?');
  return {
    path: queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt),
    query: queryAt === -1 ? '' : beforeHash.slice(queryAt),
    hash: hashAt === -1 ? undefined : decodePercent(url.slice(hashAt + 1)) || undefined,
    rawHash,
  };
}

/** A route as an href: characters a URL cannot hold as written percent-encoded (`/guide/my page` → `/guide/my%20page`). */
export function routeHref(route: string): string {
  return encodeURI(route);
}

/**
 * The route a browser shows for `path` written on the page at `route`: resolved against the page's
 * own address, as the browser will (`./zebra` on `/guide`, a folder's `index.md`, is `/zebra`),
 * percent-escapes decoded, `.html` and trailing slashes normalised.
 */
/**
 * Where a browser on page `route` goes for `url`, when that is another site: `//host/x`, and what it
 * reads the same way (`/\\host/x`, `\\\\host/x`, a tab or space first); undefined for a page of this site.
 * A URL that does not parse stays with the site (its route is checked, and reported).
 */
export function otherSite(url: string, route: string): string | undefined {
  try {
    const target = new URL(url, BASE + routeHref(route));
    return target.origin === BASE ? undefined : target.host;
  } catch {
    return undefined;
  }
}

/** The error for a link a browser reads as leading to another site only through a `\` or a space before it, or undefined. */
export function disguisedLink(url: string, route: string): { message: string; fix: string } | undefined {
  const host = otherSite(url, route);
  if (host === undefined || /^\/\/[^/\\]/.test(url)) return undefined;
  return { message: `leads to another site, ${host}: a browser reads a \\ as / and drops spaces before an address, so "${url.replace(/[\t\n\r]/g, ' ')}" is //${host}/…`, fix: `write the full address (https://${host}/…) if that site is meant, or a path of this site with / only` };
}

/** The route a browser opens for `path` on the page at `route`, in composed form (NFC) as every route is. */
export function browserRoute(path: string, route: string): string {
  const resolved = new URL(path, BASE + routeHref(route)).pathname;
  return normalisePath(decodePercent(resolved)).normalize('NFC');
}

/**
 * What `resolve` finds at `target`, or, when nothing is there, at `target` with its accents in the
 * other form: a path typed on a keyboard (composed, NFC) names a file macOS saved decomposed (NFD), and
 * the other way round. macOS finds either; Linux, where CI builds, only the bytes written.
 */
function inEitherForm<T>(target: string, resolve: (rel: string) => T | undefined): T | undefined {
  const found = resolve(target);
  if (found !== undefined || /^[\x00-\x7f]*$/.test(target)) return found;
  for (const form of ['NFD', 'NFC'] as const) {
    const other = target.normalize(form);
    if (other !== target) {
      const there = resolve(other);
      if (there !== undefined) return there;
    }
  }
  return undefined;
}

/**
 * `url` with its `#fragment` in composed form (NFC), as heading ids are (headings.ts): a browser finds
 * an id only by its exact characters, and `#re\u0301glage` (decomposed, copied from a macOS file name)
 * would not scroll to `réglage`. Unchanged when the fragment is composed already.
 */
function composedFragment(url: string): string {
  const at = url.indexOf('#');
  if (at === -1) return url;
  const fragment = decodePercent(url.slice(at + 1));
  return fragment === fragment.normalize('NFC') ? url : `${url.slice(0, at)}#${encodeURI(fragment.normalize('NFC'))}`;
}

/** Where a link or image was written, for messages. */
export interface Place {
  position?: { start: { line: number; column: number } };
}

/**
 * The checks and rewrites of one page's links and images, for markdown's and raw HTML's alike: each
 * returns the URL to publish (the one written when nothing changes) and records what it found.
 */
export function linkResolver(options: LinksOptions): { image: (url: string, place: Place) => string; link: (url: string, place: Place) => string } {
  const dir = options.rel.includes('/') ? options.rel.replace(/\/[^/]*$/, '') : '';
  const file = options.displayPrefix + options.rel;
  const pageRoute = options.routes.pageRoute(options.rel) ?? `/${options.rel.replace(/\.mdx?$/, '')}`;
  const routes = options.routes;
  const image = (written: string, node: Place): string => {
    if (schemeOf(written) !== undefined) return withoutLeadingSpace(written);
    if (written.startsWith('//')) return written;
    // An absolute path names a file below the content folder, as an absolute link to a file does.
    const absolute = written.startsWith('/');
    const target = resolvePath(absolute ? '' : dir, decodePercent(splitUrl(written).path, decodeURI));
    const url = target === undefined ? undefined : inEitherForm(target, options.resolveImage);
    if (typeof url === 'object') {
      options.errors.push({ ...at(file, node), message: `image "${written}": ${options.displayPrefix}${target} ${url.problem}`, fix: url.fix ?? UNPUBLISHABLE_FIX });
      return written;
    }
    if (url === false) options.errors.push({ ...at(file, node), message: `image "${written}" is a symbolic link that leads out of the site's repository, so it is not published`, fix: LEADS_OUT_FIX });
    else if (target === undefined) options.errors.push({ ...at(file, node), message: `image "${written}" is outside the content folder, so it cannot be published`, fix: `move the image into ${options.displayPrefix} (e.g. beside the page) and link it from there` });
    else if (url === undefined && absolute) options.warnings.push({ ...at(file, node), message: `image "${written}": no file ${options.displayPrefix}${target}, so it is left as written for the host to serve`, fix: 'put the image in the content folder and link it relatively (e.g. beside the page), or give a full URL' });
    else if (url === undefined) options.errors.push({ ...at(file, node), message: `image "${written}" does not exist`, fix: `put the image at ${options.displayPrefix}${target} or correct the path` });
    return url || written;
  };
  const link = (url: string, node: Place): string => {
    // Other schemes are checked (and unsafe ones removed) on the finished tree, raw HTML included.
    // A scheme as the browser reads it (` javascript:` too), written without the spaces the browser
    // drops (markdown would escape them, hiding the scheme): safe-urls.ts removes the unsafe ones.
    if (schemeOf(url) !== undefined) return withoutLeadingSpace(url);
    if (url.startsWith('//') || url === '') return url;
    // Another site, as the browser reads it (`/\\evil.example/x`): no route of this one.
    if (otherSite(url, pageRoute) !== undefined) {
      const disguised = disguisedLink(url, pageRoute);
      if (disguised) options.errors.push({ ...at(file, node), message: `link to "${url}" ${disguised.message}`, fix: disguised.fix });
      return url;
    }
    const { path, query, hash, rawHash } = splitUrl(url);
    if (path === '') {
      options.links.push({ route: '', hash, written: url, ...at(file, node) });
      return composedFragment(url);
    }
    if (/\.mdx?$/i.test(path) && !path.startsWith('/')) {
      const target = resolvePath(dir, decodePercent(path, decodeURI));
      const route = target === undefined ? undefined : routes.routeOfTarget(target);
      if (route === undefined && target === undefined) {
        options.warnings.push({ ...at(file, node), message: `link to "${url}": the file is outside the content folder, so it is no page of the site`, fix: "link to it on the code host with a full URL, or move it into the content folder" });
        return url;
      }
      if (route === undefined) {
        options.warnings.push({ ...at(file, node), message: `link to "${url}": no markdown file ${options.displayPrefix}${target}${isPagePath(target!) ? '' : ' (a file or folder whose name starts with `_` is no page)'}`, fix: 'correct the path, or link to a route' });
        return url;
      }
      options.links.push({ route, hash, written: url, ...at(file, node) });
      return composedFragment(routeHref(route) + query + rawHash);
    }
    const route = browserRoute(path, pageRoute);
    const last = path.slice(path.lastIndexOf('/') + 1);
    if (!routes.has(route) && /\.[a-z0-9]+$/i.test(last) && !/\.html?$/i.test(last)) {
      // A file, not a page: copied to the output under a name of its bytes, like an image.
      const target = path.startsWith('/') ? resolvePath('', decodePercent(path, decodeURI)) : resolvePath(dir, decodePercent(path, decodeURI));
      const copied = target === undefined ? undefined : inEitherForm(target, options.resolveFile);
      if (typeof copied === 'object') options.errors.push({ ...at(file, node), message: `link to "${url}": ${options.displayPrefix}${target} ${copied.problem}`, fix: copied.fix ?? UNPUBLISHABLE_FIX });
      else if (copied === false) options.errors.push({ ...at(file, node), message: `link to "${url}": the file is a symbolic link that leads out of the site's repository, so it is not published`, fix: LEADS_OUT_FIX });
      else if (copied !== undefined) return copied + query + rawHash;
      else if (target === undefined) options.errors.push({ ...at(file, node), message: `link to "${url}": the file is outside the content folder, so it cannot be published`, fix: `move the file into ${options.displayPrefix} and link it from there` });
      else if (path.startsWith('/')) options.warnings.push({ ...at(file, node), message: `link to "${url}": no file ${options.displayPrefix}${target ?? path}, so it is left as written for the host to serve`, fix: 'put the file in the content folder and link it relatively, or link to a full URL' });
      else options.errors.push({ ...at(file, node), message: `link to "${url}": the file ${options.displayPrefix}${target} does not exist`, fix: 'put the file there or correct the path' });
      return url;
    }
    // Written file-relative (as on a code host) it may name another route than the browser will open.
    const fileRelative = path.startsWith('/') ? undefined : resolvePath(dir, decodePercent(path, decodeURI));
    const intended = fileRelative === undefined ? undefined : normalisePath(`/${fileRelative}`).normalize('NFC');
    options.links.push({ route, hash, written: url, ...(intended !== undefined && intended !== route ? { fileRelative: intended } : {}), ...at(file, node) });
    // Written with a decomposed accent (`cafe%CC%81`): a host finds the page's folder only by the bytes of its composed name.
    const decoded = decodePercent(path);
    return composedFragment(routes.has(route) && decoded !== decoded.normalize('NFC') ? routeHref(route) + query + rawHash : url);
  };
  return { image, link };
}

export function remarkLinks(resolver: ReturnType<typeof linkResolver>) {
  return (tree: Root): void => {
    walk(tree, (walked) => {
      const node = walked as Image | Link | Definition | { type: 'other'; url?: undefined };
      if (node.type === 'image') node.url = resolver.image(node.url, node);
      else if (node.type === 'link' || node.type === 'definition') node.url = resolver.link(node.url, node);
    });
  };
}

function at(file: string, node: Place): { file: string; line?: number; column?: number } {
  return { file, line: node.position?.start.line, column: node.position?.start.column };
}


/** Resolves `target` against folder `dir` (both below the content folder); undefined when it climbs out. */
export function resolvePath(dir: string, target: string): string | undefined {
  const parts = dir === '' ? [] : dir.split('/');
  for (const part of target.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
}

