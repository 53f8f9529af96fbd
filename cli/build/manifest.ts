/** `manifest.json`: the routes and sidebars the runtime navigates by. */
import type { Manifest, SidebarItem } from '../../runtime/manifest';
import type { ResolvedConfig } from './config';
import type { ContentTree } from './content';
import type { PageResult } from './page-job';

/** `manifest.json` of a content tree and its page results (in the order of `content.docs`). */
export function manifestOf(config: ResolvedConfig, content: ContentTree, results: PageResult[]): Manifest {
  return {
    version: config.site.version,
    locale: config.site.locale,
    routes: content.docs.map((doc, i) => manifestRoute(doc, results[i]!)),
    sidebars: content.sidebars,
  };
}

function manifestRoute(doc: ContentTree['docs'][number], result: PageResult): Manifest['routes'][number] {
  return { path: doc.route, id: doc.id, sidebar: doc.sidebar, title: doc.title, data: result.dataUrl, mermaid: result.mermaid };
}

/** Serialised parts of `manifest.json`: each route's by its page result (with the doc it was made with), each sidebar's by its tree. */
const routeParts = new WeakMap<PageResult, { doc: ContentTree['docs'][number]; text: string }>();
const sidebarParts = new WeakMap<SidebarItem[], string>();

/**
 * The text of `manifest.json`: `JSON.stringify(manifestOf(…))`, made of parts kept from the last call
 * for the pages and sidebars that are the same objects (`docs serve` keeps both for the pages a save
 * did not touch: at 10,000 pages serialising every route took 40 ms of each save).
 */
export function manifestText(config: ResolvedConfig, content: ContentTree, results: PageResult[]): string {
  const routes: string[] = new Array(content.docs.length);
  for (let i = 0; i < routes.length; i++) {
    const doc = content.docs[i]!;
    const known = routeParts.get(results[i]!);
    if (known?.doc === doc) {
      routes[i] = known.text;
      continue;
    }
    routes[i] = JSON.stringify(manifestRoute(doc, results[i]!));
    routeParts.set(results[i]!, { doc, text: routes[i]! });
  }
  const sidebars = Object.entries(content.sidebars).map(([id, items]) => {
    let text = sidebarParts.get(items);
    if (text === undefined) sidebarParts.set(items, (text = JSON.stringify(items)));
    return `${JSON.stringify(id)}:${text}`;
  });
  return `{"version":${JSON.stringify(config.site.version)},"locale":${JSON.stringify(config.site.locale)},"routes":[${routes.join(',')}],"sidebars":{${sidebars.join(',')}}}`;
}
