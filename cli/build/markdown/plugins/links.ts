/**
 * remark plugin: rewrites relative `.md` links to routes, local images to their hashed asset URLs,
 * and records every internal link with its line so the links stage can check it against all routes.
 */
import type { Root } from 'mdast';
import type { Definition, Image, Link } from 'mdast';
import { decodePercent, normalisePath } from '../../../../runtime/routing';
import { walk } from '../walk';
import type { Diagnostic } from '../../../util/errors';

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
}

export interface LinksOptions {
  /** Path of the page below the content folder. */
  rel: string;
  /** Prefix of the content folder for messages. */
  displayPrefix: string;
  /** Route of every markdown file by its path below the content folder. */
  routeOfFile: Record<string, string>;
  /** Copies a local image (path below the content folder) and returns its public URL; undefined when missing. */
  resolveImage: (rel: string) => string | undefined;
  /** Receives the links found. */
  links: FoundLink[];
  warnings: Diagnostic[];
  errors: Diagnostic[];
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

export function remarkLinks(options: LinksOptions) {
  const dir = options.rel.includes('/') ? options.rel.replace(/\/[^/]*$/, '') : '';
  const file = options.displayPrefix + options.rel;
  return (tree: Root): void => {
    walk(tree, (walked) => {
      const node = walked as Image | Link | Definition | { type: 'other'; url?: undefined };
      if (node.type === 'image') {
        if (SCHEME.test(node.url) || node.url.startsWith('//') || node.url.startsWith('/')) return;
        const target = resolvePath(dir, decodePercent(node.url.split(/[?#]/)[0]!, decodeURI));
        const url = target === undefined ? undefined : options.resolveImage(target);
        if (url === undefined) {
          options.errors.push({ ...at(file, node), message: `image "${node.url}" does not exist`, fix: `put the image at ${options.displayPrefix}${target ?? node.url} or correct the path` });
        } else node.url = url;
        return;
      }
      if (node.type !== 'link' && node.type !== 'definition') return;
      const url = node.url;
      if (SCHEME.test(url) || url.startsWith('//') || url === '') return;
      const [pathPart, hash] = splitHash(url);
      if (pathPart === '') {
        options.links.push({ route: '', hash, written: url, ...at(file, node) });
        return;
      }
      if (/\.mdx?$/.test(pathPart) && !pathPart.startsWith('/')) {
        const target = resolvePath(dir, decodePercent(pathPart, decodeURI));
        const route = target === undefined ? undefined : options.routeOfFile[target];
        if (route === undefined) {
          options.warnings.push({ ...at(file, node), message: `link to "${url}": no markdown file ${options.displayPrefix}${target ?? pathPart}`, fix: 'correct the path, or link to a route' });
          return;
        }
        node.url = hash ? `${route}#${hash}` : route;
        options.links.push({ route, hash, written: url, ...at(file, node) });
        return;
      }
      if (/\.[a-z0-9]+$/i.test(pathPart) && !/\.html?$/i.test(pathPart)) return; // a static file, not a route
      const absolute = pathPart.startsWith('/') ? pathPart : `/${resolvePath(dir, pathPart) ?? pathPart}`;
      const route = normalisePath(absolute);
      options.links.push({ route, hash, written: url, ...at(file, node) });
    });
  };
}

function at(file: string, node: { position?: { start: { line: number; column: number } } }): { file: string; line?: number; column?: number } {
  return { file, line: node.position?.start.line, column: node.position?.start.column };
}

function splitHash(url: string): [string, string | undefined] {
  const i = url.indexOf('#');
  return i === -1 ? [url, undefined] : [url.slice(0, i), decodePercent(url.slice(i + 1)) || undefined];
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

