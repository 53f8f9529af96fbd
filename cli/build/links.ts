/**
 * Stage 5, links: one pass over the links of every rendered page. A link to a route that does not
 * exist is an error (spec §2: broken links fail the build); a missing `#anchor` is a warning.
 */
import type { Diagnostic } from '../util/errors';
import type { FoundLink } from './markdown/plugins/links';

/** The links and ids of one rendered page. */
export interface PageLinks {
  route: string;
  links: FoundLink[];
  ids: string[];
}

/** Result of `checkLinks`. */
export interface LinkReport {
  errors: Diagnostic[];
  warnings: Diagnostic[];
}

/**
 * Checks every link against the set of routes and each route's ids.
 * @param extraRoutes routes that exist without a markdown page (generated pages, `/404`)
 */
export function checkLinks(pages: PageLinks[], extraRoutes: Iterable<string> = []): LinkReport {
  // A page's ids as they are: a few links name an anchor, and a set per page of a 10,000-page site
  // cost more than searching the lists of the pages they name (docs serve checks on every save).
  const idsOf = new Map<string, string[]>(pages.map((page) => [page.route, page.ids]));
  const routes = new Set<string>([...idsOf.keys(), ...extraRoutes]);
  const errors: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  for (const page of pages) {
    for (const link of page.links) {
      const target = link.route === '' ? page.route : link.route;
      const place = { file: link.file, line: link.line, column: link.column };
      if (!routes.has(target)) {
        const intended = link.fileRelative !== undefined && routes.has(link.fileRelative) ? link.fileRelative : undefined;
        errors.push({
          ...place,
          message: `broken link → ${link.written}: no page has the route ${target}${intended ? ` (a browser resolves the link against the page's own address ${page.route})` : ''}`,
          fix: intended ? `write ${intended}, or link the markdown file (e.g. ${link.written.replace(/[?#].*$/, '').replace(/\/?$/, '')}.md)` : closest(target, routes),
        });
        continue;
      }
      const ids = idsOf.get(target);
      if (link.hash && ids && !ids.includes(link.hash)) {
        warnings.push({ ...place, message: `link → ${link.written}: ${target} has no heading with the id "${link.hash}"`, fix: 'link to an existing heading, or drop the #anchor' });
      }
    }
  }
  return { errors, warnings };
}

function closest(target: string, routes: Set<string>): string {
  const last = target.split('/').pop() ?? '';
  const candidates = [...routes].filter((route) => route.split('/').pop() === last);
  return candidates.length > 0 ? `did you mean ${candidates.slice(0, 3).join(' or ')}?` : 'link to an existing route, or create the page';
}
