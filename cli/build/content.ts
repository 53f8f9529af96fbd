/**
 * Stage 2, content: turns the files of the content folder into docs with routes, and folders into
 * sidebar trees. Pure: it takes file texts and returns data; reading the folder is the caller's job.
 */
import type { Nodes as MdastNodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import type { PageLink, SidebarItem } from '../../runtime/manifest';
import type { SidebarConfig } from './config';
import { routeProblems } from './route-problems';
import { isFolderPage, splitNumberPrefix, withoutNumberPrefixes, withoutPageExtension } from './file-names';
import { mdxProblems } from './markdown/plugins/mdx';
import { readCategories } from './categories';
import { frontmatterKeyLine, parseFrontmatter, type Frontmatter } from './frontmatter';
import { pageLabelProblems } from './label-length';
import { routeProblem, safeName } from './routes';
import { buildTree, compareNames, humanise, linkNeighbours, paginate } from './sidebar-tree';
import { DocsError, suggest, type Diagnostic } from '../util/errors';
import { hash } from '../util/hash';
import { pageCost, type PageCost } from './lanes';

/** A file of the content folder, as read by the caller. */
export interface SourceFile {
  /** Path below the content folder, with `/` separators. */
  rel: string;
  text: string;
  /** What made the file, when no writer did (a generated API page): messages name it, not a file that does not exist. */
  generatedBy?: GeneratedBy;
}

/** The maker of a generated page: what it is, and the setting that places its pages. */
export interface GeneratedBy {
  /** E.g. "the API reference of specs/api.yaml". */
  what: string;
  /** E.g. "`openapi[0].route`", a setting of `configFile`. */
  setting: string;
  /** The config file that holds the setting. */
  configFile: string;
}

/** One markdown page. */
export interface Doc {
  /** Source path below the content folder without `.md`, e.g. `backend/onboarding/index`. */
  id: string;
  /** Source path below the content folder, e.g. `backend/onboarding/index.md`. */
  rel: string;
  route: string;
  sidebar: string;
  title: string;
  /** Sidebar label. */
  label: string;
  position?: number;
  frontmatter: Frontmatter;
  /**
   * Markdown body; frontmatter lines are blanked so positions are file lines. Undefined when the page
   * was read with `readPageLean`: its file holds it (`frontmatterBody`).
   */
  body?: string;
  /** Hash of the body, for the page's output key. */
  bodyHash: string;
  /** What rendering the page costs a render thread (lanes.ts), kept when the body is not (`readPageLean`). */
  cost?: PageCost;
  /** The frontmatter key that made the route (`slug`, or `id` for its last segment) and its line, when one did: messages name it. */
  routeFrom?: { key: 'slug' | 'id'; line?: number };
  /** What made the page, when no writer did (`SourceFile.generatedBy`). */
  generatedBy?: GeneratedBy;
  /** The lines of `pagination_next` and `pagination_prev`, when set: a page they name that is not there is reported there. */
  paginationLines?: { next?: number; prev?: number };
  breadcrumbs: PageLink[];
  prev?: PageLink;
  next?: PageLink;
}

/** The result of the content stage. */
export interface ContentTree {
  docs: Doc[];
  /** Sidebar trees by sidebar id. */
  sidebars: Record<string, SidebarItem[]>;
  /** Route of every markdown file, by its path below the content folder. */
  routeOfFile: Record<string, string>;
}

/** Inputs of `collectContent`. */
export interface CollectContentOptions {
  /** Markdown files. */
  files: SourceFile[];
  /** `_category_.json` and `_category_.yml` files. */
  categories: SourceFile[];
  sidebars: SidebarConfig[];
  /** Doc id served at `/`. */
  homepageDoc?: string;
  /** Prefix of file paths in messages, e.g. `content/`. */
  displayPrefix: string;
}

/**
 * Walks the given files into docs, routes and sidebars; throws a `DocsError` listing every problem.
 * With `previous`, the tree of the same site before some files changed (`docs serve`), a sidebar none
 * of whose files changed is taken from it as it was, with its pages' breadcrumbs and neighbours.
 */
export function collectContent(options: CollectContentOptions, previous?: ContentTree): ContentTree {
  const { displayPrefix } = options;
  const problems: Diagnostic[] = [];
  if (options.files.length === 0) {
    throw new DocsError('content', [{ file: displayPrefix.replace(/\/$/, '') || '.', message: 'the content folder holds no markdown page', fix: 'add at least one `.md` file, e.g. `index.md`' }]);
  }
  const categoryMeta = readCategories(options.categories, displayPrefix, problems);
  /** The reads of the files that are pages, in file order: the docs' order. */
  const reads: (FileRead & { doc: NonNullable<FileRead['doc']> })[] = [];
  for (const file of [...options.files].sort((a, b) => compareNames(a.rel, b.rel))) {
    const read = readFile(file, options);
    problems.push(...read.problems);
    if (read.doc) reads.push(read as FileRead & { doc: NonNullable<FileRead['doc']> });
  }
  problems.push(...routeProblems(reads.map((read) => read.doc), displayPrefix));
  if (problems.length > 0) throw new DocsError('content', problems);
  // Each sidebar's pages, by their place in `reads`.
  const bySidebar = new Map<string, number[]>(options.sidebars.map((sidebar) => [sidebar.id, []]));
  reads.forEach((read, at) => bySidebar.get(read.doc.sidebar)!.push(at));
  const before = previous && builds.get(previous);
  const sameCategories = before !== undefined && sameItems(before.categories, options.categories);
  const docs: Doc[] = new Array(reads.length);
  const sidebars: Record<string, SidebarItem[]> = {};
  const made = new Map<string, SidebarMade>();
  for (const sidebar of options.sidebars) {
    const places = bySidebar.get(sidebar.id)!;
    const ownReads = places.map((at) => reads[at]!);
    const old = before?.sidebars.get(sidebar.id);
    if (sameCategories && old && previous!.sidebars[sidebar.id] && sameItems(old.reads, ownReads)) {
      // The same files read the same way: the same tree, and the same docs with their breadcrumbs and neighbours.
      sidebars[sidebar.id] = previous!.sidebars[sidebar.id]!;
      places.forEach((at, i) => (docs[at] = old.docs[i]!));
      made.set(sidebar.id, old);
      continue;
    }
    // Fresh objects, with every field from the start (the sidebar stage sets breadcrumbs and neighbours).
    const own = places.map((at): Doc => (docs[at] = { ...reads[at]!.doc, breadcrumbs: [], prev: undefined, next: undefined }));
    made.set(sidebar.id, { docs: own, reads: ownReads });
    sidebars[sidebar.id] = buildTree(own, sidebar.dir === '.' ? '' : sidebar.dir, categoryMeta);
    linkNeighbours(sidebars[sidebar.id]!, own);
  }
  paginate(docs, displayPrefix);
  const routeOfFile: Record<string, string> = {};
  for (const doc of docs) routeOfFile[doc.rel] = doc.route;
  const tree = { docs, sidebars, routeOfFile };
  builds.set(tree, { categories: options.categories, sidebars: made });
  return tree;
}

/**
 * `homepage.doc` must name a page: a misspelt id would build a site without `/`, its readers' first
 * stop. Throws a config error at `/homepage/doc` of `configFile` otherwise.
 */
export function checkHomepage(tree: ContentTree, homepageDoc: string | undefined, configFile: string): void {
  if (homepageDoc === undefined || tree.docs.some((doc) => doc.id === homepageDoc)) return;
  const ids = tree.docs.map((doc) => doc.id);
  const written = withoutPageExtension(homepageDoc).replace(/^\.?\//, '');
  // The file is there, but its frontmatter `id` (or its number prefix) gave the page another id.
  const renamed = tree.docs.find((doc) => withoutPageExtension(doc.rel) === written && doc.id !== written);
  if (renamed?.frontmatter.id) {
    throw new DocsError('config', [{ file: configFile, pointer: '/homepage/doc', message: `\`homepage.doc\` names "${homepageDoc}", but the frontmatter \`id\` of ${renamed.rel} makes that page "${renamed.id}"`, fix: `write "${renamed.id}", or remove the \`id\` from ${renamed.rel}` }]);
  }
  if (renamed) {
    throw new DocsError('config', [{ file: configFile, pointer: '/homepage/doc', message: `\`homepage.doc\` names "${homepageDoc}", but a number prefix orders pages and is no part of their ids: ${renamed.rel} is the page "${renamed.id}"`, fix: `write "${renamed.id}"` }]);
  }
  const likely = ids.includes(written) ? written : suggest(homepageDoc, ids);
  const pages = ids.filter((id) => id.split('/').pop() === 'index').slice(0, 5);
  throw new DocsError('config', [
    {
      file: configFile,
      pointer: '/homepage/doc',
      message: `\`homepage.doc\` names the page "${homepageDoc}", which is not in the content`,
      fix: likely ? `write "${likely}" (a page's path below the content folder, without .md)` : `name a page by its path below the content folder, without .md${pages.length > 0 ? `, e.g. ${pages.map((id) => `"${id}"`).join(', ')}` : ''}`,
    },
  ]);
}

/** A sidebar's docs and the file reads they come from, in order. */
interface SidebarMade {
  docs: Doc[];
  reads: FileRead[];
}

/** What each tree was made from: its category files, each sidebar's docs and reads, and (once asked for) each doc's place by file. */
const builds = new WeakMap<ContentTree, { categories: SourceFile[]; sidebars: Map<string, SidebarMade>; places?: Map<string, number> }>();

/**
 * The tree of `previous` after the given files were saved with changes to their bodies alone: the same
 * docs, sidebars and routes, those files' docs with their new body. Undefined when a saved file is new,
 * has a problem, or changed anything a sidebar or route shows (then `collectContent` is the way). At
 * 10,000 pages this is what keeps a save in `docs serve` from walking every page.
 */
export function withBodies(previous: ContentTree, files: SourceFile[], options: CollectContentOptions): { tree: ContentTree; changed: number[] } | undefined {
  const before = builds.get(previous);
  if (!before) return undefined;
  before.places ??= new Map(previous.docs.map((doc, at) => [doc.rel, at]));
  const docs = [...previous.docs];
  const sidebars = new Map(before.sidebars);
  const changed: number[] = [];
  for (const file of files) {
    const at = before.places.get(file.rel);
    const read = readFile(file, options);
    if (at === undefined || !read.doc || read.problems.length > 0) return undefined;
    const old = docs[at]!;
    const { body, bodyHash, frontmatter, ...shown } = read.doc;
    const same = (Object.keys(shown) as (keyof typeof shown)[]).every((key) => shown[key] === old[key]) && JSON.stringify(frontmatter) === JSON.stringify(old.frontmatter);
    if (!same) return undefined;
    const doc = { ...old, body, bodyHash, frontmatter };
    docs[at] = doc;
    changed.push(at);
    const own = sidebars.get(doc.sidebar)!;
    const i = own.docs.indexOf(old);
    sidebars.set(doc.sidebar, { docs: own.docs.map((item, n) => (n === i ? doc : item)), reads: own.reads.map((item, n) => (n === i ? read : item)) });
  }
  const tree = { docs, sidebars: previous.sidebars, routeOfFile: previous.routeOfFile };
  builds.set(tree, { categories: options.categories, sidebars, places: before.places });
  return { tree, changed };
}

/** True when both lists hold the same objects in the same order. */
function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

/** What one file gives, before the sidebars: its doc (without breadcrumbs and neighbours) or its problems. */
interface FileRead {
  /** The options it was read with: a file read again under other options is read anew. */
  options: Pick<CollectContentOptions, 'sidebars' | 'homepageDoc' | 'displayPrefix'>;
  problems: Diagnostic[];
  doc?: Omit<Doc, 'breadcrumbs' | 'prev' | 'next'>;
}

/**
 * Each file's read, by the file object. `docs serve` collects the content again after every save with
 * the same objects for the files that did not change (cli/serve/incremental.ts), so only the saved
 * file's frontmatter is parsed again: at 10,000 pages parsing them all took 80 ms of every save.
 */
const reads = new WeakMap<SourceFile, FileRead>();

function readFile(file: SourceFile, options: FileRead['options']): FileRead {
  const known = reads.get(file);
  if (known && known.options.sidebars === options.sidebars && known.options.homepageDoc === options.homepageDoc && known.options.displayPrefix === options.displayPrefix) return known;
  const read: FileRead = { options: readOptions(options), problems: [] };
  reads.set(file, read);
  const display = options.displayPrefix + file.rel;
  const split = parseFrontmatter(file.text, display);
  read.problems.push(...split.problems);
  if (file.rel.endsWith('.mdx')) read.problems.push(...mdxProblems(split.body, display));
  const sidebar = pickSidebar(file.rel, options.sidebars);
  if (!sidebar) {
    read.problems.push({
      file: display,
      message: 'is outside every sidebar',
      fix: `move it into one of the sidebar folders (${options.sidebars.map((sb) => sb.dir).join(', ')}) or add a sidebar for its folder in site.config.ts`,
    });
    return read;
  }
  const fm = split.frontmatter;
  const { id, prefix } = pageId(file.rel, fm);
  const heading = fm.title === undefined ? leadingHeading(split.body) : undefined;
  const title = fm.title ?? heading?.text ?? humanise(id.split('/').pop()!);
  // A generated page's names come from its spec, which says where they are written (not a file here).
  if (!file.generatedBy) {
    const titleFrom = fm.title !== undefined ? { key: 'title' as const, line: frontmatterKeyLine(file.text, 'title') } : heading ? { key: 'heading' as const, line: heading.line } : { key: 'file' as const };
    const sidebarLabel = fm.sidebar_label === undefined ? undefined : { text: fm.sidebar_label, line: frontmatterKeyLine(file.text, 'sidebar_label') };
    read.problems.push(...pageLabelProblems({ file: display, title, titleFrom, sidebarLabel }));
  }
  const route = routeOf(id, fm.slug, options.homepageDoc, !fm.id && isFolderPage(file.rel, fm));
  const problem = routeProblem(route);
  const key = fm.slug !== undefined ? 'slug' : fm.id !== undefined ? 'id' : undefined;
  const routeLine = key && frontmatterKeyLine(file.text, key);
  if (problem) {
    read.problems.push({
      file: display,
      line: routeLine,
      message: `its route ${JSON.stringify(route)} ${problem}`,
      fix: key ? `give \`${key}\` a value of plain path segments, e.g. ${key}: ${key === 'slug' ? '/guide/my-page' : 'my-page'}` : `rename the file or folder${renamedExample(file.rel, fm, options.homepageDoc)}, or set \`slug:\` in its frontmatter`,
    });
    return read;
  }
  read.doc = { id, rel: file.rel, route, sidebar: sidebar.id, title, label: fm.sidebar_label ?? title, position: fm.sidebar_position ?? prefix, frontmatter: fm, body: split.body, bodyHash: hash(split.body), ...(key && !file.generatedBy ? { routeFrom: { key, ...(routeLine ? { line: routeLine } : {}) } } : {}), ...(file.generatedBy ? { generatedBy: file.generatedBy } : {}), ...paginationLines(file.text, fm) };
  return read;
}

/** A page's id from its path and frontmatter, and the number prefix of its file name. */
function pageId(rel: string, fm: Frontmatter): { id: string; prefix?: number } {
  // Number prefixes order the sidebar and are no part of ids and routes (file-names.ts).
  const fileName = withoutPageExtension(rel.slice(rel.lastIndexOf('/') + 1));
  const name = fm.parse_number_prefixes === false ? { name: fileName, prefix: undefined } : splitNumberPrefix(fileName);
  const id = withoutNumberPrefixes(rel.slice(0, rel.lastIndexOf('/') + 1)) + name.name;
  // Composed (NFC), as routes are: an id typed in `pagination_next` or `homepage.doc` meets a file named on macOS.
  return { id: (fm.id ? id.replace(/[^/]+$/, fm.id) : id).normalize('NFC'), prefix: name.prefix };
}

/** ` (e.g. to guide/notes-html.md)`: a name for the page file at `rel` whose route is accepted, when safeName finds one. */
function renamedExample(rel: string, fm: Frontmatter, homepageDoc: string | undefined): string {
  const renamed = safeName(rel);
  const accepted = renamed !== rel && routeProblem(routeOf(pageId(renamed, fm).id, fm.slug, homepageDoc, !fm.id && isFolderPage(renamed, fm))) === undefined;
  return accepted ? ` (e.g. to ${renamed})` : '';
}

/**
 * Reads a page file as it comes off the disk, keeping its doc without the body (a render worker reads
 * the file again for it): `collectContent` finds the read done, and the caller may drop the file's
 * text at once. The build's main thread so never holds the site's text (at 100,000 pages it was most
 * of a 1.8 GB heap).
 */
export function readPageLean(file: SourceFile, options: FileRead['options']): void {
  const read = readFile(file, options);
  if (read.doc) read.doc = { ...read.doc, body: undefined, cost: pageCost(read.doc.body ?? '') };
}

/** The doc of a page file read without problems (`readPageLean`), as a build keeps it for the next one (read-cache.ts). */
export function readDoc(file: SourceFile): KeptDoc | undefined {
  const read = reads.get(file);
  return read && read.problems.length === 0 ? read.doc : undefined;
}

/** A page's doc from a file's read, without its body. */
export type KeptDoc = NonNullable<FileRead['doc']>;

/**
 * Takes `doc` as the read of `file` under `options`, as an earlier build read the same file (size,
 * mtime and ctime unchanged): `collectContent` finds it there and the file is not read.
 */
export function adoptRead(file: SourceFile, options: FileRead['options'], doc: KeptDoc): void {
  reads.set(file, { options: readOptions(options), problems: [], doc });
}

/** The options a read depends on, and only those (a read is reused while they are the same objects). */
function readOptions(options: FileRead['options']): FileRead['options'] {
  return { sidebars: options.sidebars, homepageDoc: options.homepageDoc, displayPrefix: options.displayPrefix };
}

/** The sidebar whose folder is the longest prefix of `rel`. */
function pickSidebar(rel: string, sidebars: SidebarConfig[]): SidebarConfig | undefined {
  let best: SidebarConfig | undefined;
  let bestLength = -1;
  for (const sidebar of sidebars) {
    const dir = sidebar.dir === '.' ? '' : sidebar.dir.replace(/\/$/, '');
    if ((dir === '' || rel.startsWith(`${dir}/`)) && dir.length > bestLength) {
      best = sidebar;
      bestLength = dir.length;
    }
  }
  return best;
}

/**
 * Route of a doc id: `a/b/index` → `/a/b`, `a/b` → `/a/b`; a folder's own page (`folderPage`: its
 * README.md, or the page named as the folder, file-names.ts) → the folder's; a slug overrides. Always
 * in Unicode's composed form (NFC), whatever form the file name or slug was written in.
 */
export function routeOf(id: string, slug: string | undefined, homepageDoc: string | undefined, folderPage = false): string {
  if (homepageDoc !== undefined && id === homepageDoc) return '/';
  let path = folderPage ? id.replace(/(^|\/)[^/]*$/, '') : id.replace(/(^|\/)index$/, '');
  if (slug !== undefined) path = slug.startsWith('/') ? slug : path.replace(/[^/]*$/, slug);
  // In composed form (NFC): macOS writes `é` in file names as `e` and a combining accent, a keyboard
  // types it as one character, and a host finds a folder only by the bytes of its name.
  return `/${path}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1').normalize('NFC');
}

/** The text of the page's leading `# h1`, as a reader sees it (markup gone: `The \`docs\` **CLI**` → `The docs CLI`), and its line. */
function leadingHeading(body: string): { text: string; line: number } | undefined {
  const match = /^\s*# (.+?)\s*#*\s*$/m.exec(body);
  if (!match || body.slice(0, match.index).trim() !== '') return undefined;
  // The body's lines are the file's (its frontmatter is blanked).
  const line = body.slice(0, match.index + match[0].indexOf('#')).split('\n').length;
  // Without Docusaurus' explicit id (`# Set-up {#install}`), which the page does not show either.
  const source = match[1]!.replace(/\s*\{#[^\s{}]+\}$/, '');
  // Most headings are plain words: parsed only when they may hold markup, an escape or an entity.
  if (!/[\\`*_~[\]<>&!]/.test(source)) return { text: source, line };
  const heading = fromMarkdown(`# ${source}`).children[0];
  return { text: (heading && textOf(heading).trim()) || source, line };
}

/** The text of an mdast node: text, code and image descriptions; raw HTML tags say nothing. */
function textOf(node: MdastNodes): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  if (node.type === 'image') return node.alt ?? '';
  if (node.type === 'break') return ' ';
  return 'children' in node ? (node.children as MdastNodes[]).map(textOf).join('') : '';
}

/** Where a page's `pagination_next` and `pagination_prev` are written, when it sets either to a page. */
function paginationLines(text: string, fm: Frontmatter): Pick<Doc, 'paginationLines'> {
  const next = typeof fm.pagination_next === 'string' ? frontmatterKeyLine(text, 'pagination_next') : undefined;
  const prev = typeof fm.pagination_prev === 'string' ? frontmatterKeyLine(text, 'pagination_prev') : undefined;
  return next || prev ? { paginationLines: { ...(next ? { next } : {}), ...(prev ? { prev } : {}) } } : {};
}
