/**
 * A sidebar's tree from its docs: folders become categories (label and position from `_category_.json`,
 * else from the folder's own page (index.md, README.md…), else from the folder's name and number
 * prefix), pages and categories sorted by position then name, the sidebar's own page first; and each doc's breadcrumbs and neighbours in the
 * sidebar's reading order. Part of stage 2, content (content.ts).
 */
import type { PageLink, SidebarItem } from '../../runtime/manifest';
import type { Doc } from './content';
import { DocsError, suggest, type Diagnostic } from '../util/errors';
import { isFolderPage, splitNumberPrefix, withoutPageExtension } from './file-names';

/** What a folder's `_category_.json` says of it. */
export interface CategoryMeta {
  label?: string;
  position?: number;
}

/** A file or folder name as a label: `cp-authentication` → `Cp authentication`. */
export function humanise(name: string): string {
  const words = name.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Names in code-unit order (the order of files in a folder, the same on every machine). */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

interface Node {
  name: string;
  /** The sidebar's own page (its folder's index.md or README.md): first, whatever its position. */
  lead?: boolean;
  position?: number;
  item: SidebarItem;
}

/** The sidebar tree of a sidebar's docs below `baseDir`; sets each doc's breadcrumbs. */
export function buildTree(docs: Doc[], baseDir: string, categoryMeta: Map<string, CategoryMeta>): SidebarItem[] {
  interface Folder {
    path: string;
    index?: Doc;
    docs: Doc[];
    folders: Map<string, Folder>;
  }
  const root: Folder = { path: baseDir, docs: [], folders: new Map() };
  for (const doc of docs) {
    const rel = baseDir ? doc.rel.slice(baseDir.length + 1) : doc.rel;
    const parts = rel.split('/');
    const fileName = parts.pop()!;
    let folder = root;
    for (const part of parts) {
      let next = folder.folders.get(part);
      if (!next) {
        next = { path: folder.path ? `${folder.path}/${part}` : part, docs: [], folders: new Map() };
        folder.folders.set(part, next);
      }
      folder = next;
    }
    // A folder's own page (index.md, README.md, or named as the folder) is its category's link. Two
    // of them have one route, which fails the build, unless a slug moved one: index.md is the link.
    if (folder !== root && isFolderPage(doc.rel, doc.frontmatter) && (!folder.index || /^index\.mdx?$/i.test(fileName))) {
      if (folder.index) folder.docs.push(folder.index);
      folder.index = doc;
    } else folder.docs.push(doc);
  }
  const toItems = (folder: Folder, trail: PageLink[]): SidebarItem[] => {
    const nodes: Node[] = folder.docs.map((doc) => {
      doc.breadcrumbs = trail;
      return { name: withoutPageExtension(doc.rel.split('/').pop()!), lead: folder === root && isFolderPage(doc.rel, doc.frontmatter), position: doc.position, item: { type: 'doc', label: doc.label, route: doc.route, ...(doc.frontmatter.sidebar_class_name ? { className: doc.frontmatter.sidebar_class_name } : {}) } };
    });
    for (const [name, child] of folder.folders) {
      const meta = categoryMeta.get(child.path) ?? {};
      const unprefixed = splitNumberPrefix(name);
      const label = meta.label ?? child.index?.label ?? humanise(unprefixed.name);
      const crumb: PageLink = { label, route: child.index?.route ?? '' };
      if (child.index) child.index.breadcrumbs = trail;
      const items = toItems(child, [...trail, crumb]);
      nodes.push({
        name,
        position: meta.position ?? child.index?.position ?? unprefixed.prefix,
        item: { type: 'category', label, ...(child.index ? { route: child.index.route } : {}), items },
      });
    }
    nodes.sort((a, b) => {
      // A folder's own page leads it, whatever its position.
      if (a.lead || b.lead) return a.lead ? -1 : 1;
      if (a.position !== undefined && b.position !== undefined && a.position !== b.position) return a.position - b.position;
      if (a.position !== undefined && b.position === undefined) return -1;
      if (a.position === undefined && b.position !== undefined) return 1;
      return compareNames(a.name, b.name);
    });
    return nodes.map((node) => node.item);
  };
  return toItems(root, []);
}

/** Sets prev/next on every doc from the sidebar's reading order. */
export function linkNeighbours(items: SidebarItem[], docs: Doc[]): void {
  const order: PageLink[] = [];
  const walk = (list: SidebarItem[]): void => {
    for (const item of list) {
      if (item.route) order.push({ route: item.route, label: item.label });
      if (item.type === 'category') walk(item.items);
    }
  };
  walk(items);
  const byRoute = new Map(docs.map((doc) => [doc.route, doc]));
  order.forEach((link, i) => {
    const doc = byRoute.get(link.route);
    if (!doc) return;
    if (i > 0) doc.prev = order[i - 1];
    if (i < order.length - 1) doc.next = order[i + 1];
  });
}

/**
 * Docusaurus' pagination keys over the sidebar's order: `pagination_next` / `pagination_prev` name the
 * page a link leads to by id (another sidebar's too), or `null` for none; `pagination_label` is a
 * page's label in the links that lead to it. Set on the docs in place, every time: a sidebar taken as
 * it was from an earlier collection (`docs serve`) still gets the labels of pages that changed since.
 */
export function paginate(docs: Doc[], displayPrefix: string): void {
  if (!docs.some((doc) => doc.frontmatter.pagination_label !== undefined || doc.frontmatter.pagination_next !== undefined || doc.frontmatter.pagination_prev !== undefined)) return;
  const byId = new Map(docs.map((doc) => [doc.id, doc]));
  const byRoute = new Map(docs.map((doc) => [doc.route, doc]));
  const linkTo = (doc: Doc): PageLink => ({ route: doc.route, label: doc.frontmatter.pagination_label ?? doc.label });
  const problems: Diagnostic[] = [];
  for (const doc of docs) {
    for (const side of ['next', 'prev'] as const) {
      const named = doc.frontmatter[side === 'next' ? 'pagination_next' : 'pagination_prev'];
      if (named === null) doc[side] = undefined;
      else if (named !== undefined) {
        const target = byId.get(named.replace(/\.mdx?$/, '').replace(/^\.?\//, '').normalize('NFC'));
        if (target) doc[side] = linkTo(target);
        else {
          const likely = suggest(named, [...byId.keys()]);
          problems.push({ file: displayPrefix + doc.rel, line: doc.paginationLines?.[side], pointer: `/pagination_${side}`, message: `\`pagination_${side}\` names "${named}", which is no page's id`, fix: likely ? `write "${likely}"` : "write a page's id (its path below the content folder, without .md), or null for no link" });
        }
      } else {
        const link = doc[side];
        const target = link && byRoute.get(link.route);
        if (link && target?.frontmatter.pagination_label !== undefined) doc[side] = linkTo(target);
      }
    }
  }
  if (problems.length > 0) throw new DocsError('content', problems);
}
