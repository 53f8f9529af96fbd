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
  return new LinkChecker(pages, extraRoutes).report();
}

/**
 * `checkLinks` with each page's problems kept, so that after a save (`docs serve`) only the saved pages
 * and the pages linking to their anchors are checked again: at 10,000 pages checking every link took
 * 20–50 ms of each save.
 */
export class LinkChecker {
  private readonly routes: Set<string>;
  // A page's ids as they are: a few links name an anchor, and a set per page of a 10,000-page site
  // cost more than searching the lists of the pages they name.
  private readonly idsOf: Map<string, string[]>;
  /** Each page's problems, by its place. */
  private readonly reports: LinkReport[];
  /** The pages with a link to an anchor of a route, by that route. */
  private readonly anchorLinks = new Map<string, Set<number>>();

  constructor(pages: PageLinks[], extraRoutes: Iterable<string> = []) {
    this.idsOf = new Map(pages.map((page) => [page.route, page.ids]));
    this.routes = new Set([...this.idsOf.keys(), ...extraRoutes]);
    this.reports = pages.map((page, at) => {
      this.indexAnchors(page, at, true);
      return this.check(page);
    });
  }

  /** Every problem found. */
  report(): LinkReport {
    return { errors: this.reports.flatMap((report) => report.errors), warnings: this.reports.flatMap((report) => report.warnings) };
  }

  /**
   * The report after the pages at `changed` got new links and ids (`pages` as they are now, with the
   * same routes in the same places as before).
   */
  update(before: PageLinks[], pages: PageLinks[], changed: number[]): LinkReport {
    const again = new Set(changed);
    for (const at of changed) {
      this.indexAnchors(before[at]!, at, false);
      this.indexAnchors(pages[at]!, at, true);
      this.idsOf.set(pages[at]!.route, pages[at]!.ids);
      for (const linker of this.anchorLinks.get(pages[at]!.route) ?? []) again.add(linker);
    }
    for (const at of again) this.reports[at] = this.check(pages[at]!);
    return this.report();
  }

  private indexAnchors(page: PageLinks, at: number, add: boolean): void {
    for (const link of page.links) {
      if (!link.hash) continue;
      const target = link.route === '' ? page.route : link.route;
      let linkers = this.anchorLinks.get(target);
      if (!linkers) this.anchorLinks.set(target, (linkers = new Set()));
      if (add) linkers.add(at);
      else linkers.delete(at);
    }
  }

  private check(page: PageLinks): LinkReport {
    const errors: Diagnostic[] = [];
    const warnings: Diagnostic[] = [];
    for (const link of page.links) {
      const target = link.route === '' ? page.route : link.route;
      const place = { file: link.file, line: link.line, column: link.column };
      if (!this.routes.has(target)) {
        const intended = link.fileRelative !== undefined && this.routes.has(link.fileRelative) ? link.fileRelative : undefined;
        errors.push({
          ...place,
          message: `broken link → ${link.written}: no page has the route ${target}${intended ? ` (a browser resolves the link against the page's own address ${page.route})` : ''}`,
          fix: intended ? `write ${intended}, or link the markdown file (e.g. ${link.written.replace(/[?#].*$/, '').replace(/\/?$/, '')}.md)` : closest(target, this.routes),
        });
        continue;
      }
      const missing = missingAnchor(link, target, this.idsOf.get(target));
      if (missing) warnings.push({ ...place, ...missing });
    }
    return { errors, warnings };
  }
}

/** The warning (message and fix) for a link to `#hash` of the page at `target`, whose ids are `ids`, when it has no such id. */
export function missingAnchor(link: Pick<FoundLink, 'hash' | 'written'>, target: string, ids: readonly string[] | undefined): { message: string; fix: string } | undefined {
  if (!link.hash || !ids || ids.includes(link.hash) || ids.includes(link.hash.normalize('NFC'))) return undefined;
  // An id written in raw HTML is published with a prefix (raw-html.ts), which the writer may not know.
  const prefixed = `user-content-${link.hash}`;
  const fix = ids.includes(prefixed) ? `an id written in raw HTML gets the prefix user-content- (so it cannot shadow the page's own): link #${prefixed}, or make the target a markdown heading` : 'link to an existing heading, or drop the #anchor';
  return { message: `link → ${link.written}: ${target} has no heading with the id "${link.hash}"`, fix };
}

function closest(target: string, routes: Set<string>): string {
  const last = target.split('/').pop() ?? '';
  const candidates = [...routes].filter((route) => route.split('/').pop() === last);
  return candidates.length > 0 ? `did you mean ${candidates.slice(0, 3).join(' or ')}?` : 'link to an existing route, or create the page';
}
