/**
 * What a page's markdown asked of the site's routes, and what it was told (plugins/links.ts): the
 * page's own route, the route of each page file its links name (or none), and whether each route its
 * links name is a page's. A page's rendered markdown (page-job.ts, the cache) and its whole output
 * (pages.ts `previousResults`) stand while the routes answer those questions alike. A page added,
 * removed or given another route then renders again only the pages whose links asked about it: the
 * whole route map was in every page's keys, and a page added to a site of 10,000 rendered all 10,000
 * again (44–58 s, more each time, as the cache filled with the pages' earlier renders).
 */
import { hash } from '../../util/hash';

/**
 * Each question a page's links asked (`p:` its own route by its file, `f:` a linked page file's route,
 * `r:` whether a route is a page's) and its answer, as the JSON of `[question, answer][]`: one string a
 * page, which the store decodes at once (a build reads every page's result).
 */
export type RouteLookups = string;

/** The route map's digest: while it is the same, every answer is (pages.ts `previousResults` asks no page's questions then). */
export function routesDigest(routeOfFile: Record<string, string>): string {
  return hash(JSON.stringify(routeOfFile));
}

/** The site's routes: each page file's by its path below the content folder, and all of them. */
export interface SiteRoutes {
  routeOfFile: Record<string, string>;
  routes: ReadonlySet<string>;
}

/** The site's routes as a page's links ask about them (plugins/links.ts). */
export interface RouteAnswers {
  /** The route of the page file `rel`, as written. */
  pageRoute: (rel: string) => string | undefined;
  /** The route of the page file a link names: by its path, or else by the path's composed form (NFC). */
  routeOfTarget: (target: string) => string | undefined;
  /** True when `route` is a page's. */
  has: (route: string) => boolean;
}

/** `site`'s answers, each question recorded in `asked` (with its answer) when given. */
export function askingRoutes(site: SiteRoutes, asked?: Map<string, string | boolean | null>): RouteAnswers {
  const ask = (question: string): string | boolean | null => {
    const told = answer(site, question);
    asked?.set(question, told);
    return told;
  };
  return {
    pageRoute: (rel) => (ask(`p:${rel}`) as string | null) ?? undefined,
    routeOfTarget: (target) => (ask(`f:${target}`) as string | null) ?? undefined,
    has: (route) => ask(`r:${route}`) as boolean,
  };
}

/** The lookups of `asked` (`askingRoutes`). */
export function lookupsOf(asked: ReadonlyMap<string, string | boolean | null>): RouteLookups {
  return JSON.stringify([...asked]);
}

/** True when `site` answers every question of `lookups` as it was answered; false without lookups (a page rendered by an earlier version) or with damaged ones. */
export function sameAnswers(lookups: RouteLookups | undefined, site: SiteRoutes): boolean {
  if (typeof lookups !== 'string') return false;
  let pairs: unknown;
  try {
    pairs = JSON.parse(lookups);
  } catch {
    return false;
  }
  return Array.isArray(pairs) && pairs.every((pair) => Array.isArray(pair) && typeof pair[0] === 'string' && answer(site, pair[0]) === pair[1]);
}

/** The site's routes as a set, once per route map. */
const routeSets = new WeakMap<Record<string, string>, ReadonlySet<string>>();

/** The site's routes of a route map (`routeOfFile`), its set of routes made once. */
export function siteRoutes(routeOfFile: Record<string, string>): SiteRoutes {
  let routes = routeSets.get(routeOfFile);
  if (!routes) routeSets.set(routeOfFile, (routes = new Set(Object.values(routeOfFile))));
  return { routeOfFile, routes };
}

function answer({ routeOfFile, routes }: SiteRoutes, question: string): string | boolean | null {
  const key = question.slice(2);
  if (question.startsWith('r:')) return routes.has(key);
  if (question.startsWith('p:')) return Object.hasOwn(routeOfFile, key) ? routeOfFile[key]! : null;
  return routeOfTarget(routeOfFile, key) ?? null;
}

/**
 * The route of the page file `target`: by its path, or else by the path's composed form (NFC) — a
 * link typed `café.md` to a file macOS named `cafe\u0301.md`, or the other way round.
 */
function routeOfTarget(routeOfFile: Record<string, string>, target: string): string | undefined {
  const route = Object.hasOwn(routeOfFile, target) ? routeOfFile[target] : undefined;
  if (route !== undefined || /^[\x00-\x7f]*$/.test(target)) return route;
  const composed = target.normalize('NFC');
  const file = Object.keys(routeOfFile).find((rel) => rel.normalize('NFC') === composed);
  return file === undefined ? undefined : routeOfFile[file];
}
