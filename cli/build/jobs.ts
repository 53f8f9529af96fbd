/** The page jobs of a content tree: what each page's rendering takes from its doc, git and the config. */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { LastUpdated } from '../../runtime/manifest';
import type { ResolvedConfig } from './config';
import type { ContentTree } from './content';
import { lastUpdateTime, type Frontmatter } from './frontmatter';
import type { ApiPages } from './openapi/api-pages';
import type { PageJob } from './page-job';

/** The page jobs of a content tree. */
export function jobsOf({ content, config, lastUpdates, api, modified }: { content: ContentTree; config: ResolvedConfig; lastUpdates: Map<string, LastUpdated>; api: ApiPages; modified?: Map<string, number> }): PageJob[] {
  return content.docs.map((doc) => ({
    rel: doc.rel,
    id: doc.id,
    route: doc.route,
    sidebar: doc.sidebar,
    title: doc.title,
    description: doc.frontmatter.description,
    hideToc: doc.frontmatter.hide_table_of_contents ?? false,
    ...(doc.frontmatter.hide_title ? { hideTitle: true } : {}),
    ...(doc.frontmatter.toc_min_heading_level !== undefined || doc.frontmatter.toc_max_heading_level !== undefined ? { tocLevels: { minLevel: doc.frontmatter.toc_min_heading_level, maxLevel: doc.frontmatter.toc_max_heading_level } } : {}),
    body: doc.body,
    bodyHash: doc.bodyHash,
    ...(doc.cost ? { cost: doc.cost } : {}),
    breadcrumbs: doc.breadcrumbs,
    prev: doc.prev,
    next: doc.next,
    // Files git does not track fall back to their modification time (as the content walk found it, or one stat).
    lastUpdated: withGivenUpdate(api.lastUpdated.get(doc.rel) ?? lastUpdates.get(doc.rel) ?? { timestamp: Math.round(modified?.get(doc.rel) ?? statSync(join(config.contentDir, doc.rel)).mtimeMs) }, doc.frontmatter.last_update),
    // `custom_edit_url: null` is no link ('').
    editUrl: doc.frontmatter.custom_edit_url === null ? '' : (doc.frontmatter.custom_edit_url ?? api.editUrl.get(doc.rel)),
  }));
}

/** The page's last update with the frontmatter's `last_update` date and author in place of what git or the file says. */
function withGivenUpdate(found: LastUpdated, given: Frontmatter['last_update']): LastUpdated {
  if (!given) return found;
  const timestamp = given.date === undefined ? undefined : lastUpdateTime(given.date);
  return { ...found, ...(given.author !== undefined ? { author: given.author } : {}), ...(timestamp !== undefined ? { timestamp } : {}) };
}
