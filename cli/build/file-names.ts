/**
 * What the names of the content folder's files and folders mean, by Docusaurus' conventions, so a
 * Docusaurus docs folder moves over unchanged (docs/architecture.md, "Content conventions"):
 *
 * - A page is a `.md` file, or a `.mdx` file read as markdown. A file or folder whose name starts with `_` is not one (a partial, drafts,
 *   assets kept beside the pages), except the category files `_category_.json` and `_category_.yml`.
 * - A number prefix orders without showing: `01-setup.md` is the page `setup` at position 1, the
 *   folder `02-guides` the category `guides` at position 2. Names that read as a version or a date
 *   (`1.2-notes`, `2024-05-retro`) keep theirs.
 * - A folder's own page is its `index.md`, its `README.md`, or the page named as the folder
 *   (`guides/guides.md`), in any letter case: its route is the folder's.
 */

/** The category files of a folder (label and position). */
export const CATEGORY_FILES = ['_category_.json', '_category_.yml', '_category_.yaml'];

/** A page file's extension: `.md`, or `.mdx` (read as markdown: content.ts refuses MDX's imports). */
const PAGE_EXTENSION = /\.mdx?$/;

/** True for the name of a page file. */
export function isPageName(name: string): boolean {
  return PAGE_EXTENSION.test(name) && !name.startsWith('_');
}

/** A page file's path without its extension (`guide/setup.mdx` → `guide/setup`). */
export function withoutPageExtension(rel: string): string {
  return rel.replace(PAGE_EXTENSION, '');
}

/** True for a file or folder the content walk passes by: hidden (`.git`), `node_modules`, or `_`-prefixed. */
export function isSkippedName(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules' || (name.startsWith('_') && !CATEGORY_FILES.includes(name));
}

/**
 * True for a page file (path below the content folder) the build reads: a `.md` file none of whose
 * folders, nor itself, is skipped.
 */
export function isPagePath(rel: string): boolean {
  const parts = rel.split('/');
  return isPageName(parts[parts.length - 1]!) && parts.every((part) => !isSkippedName(part));
}

/** True for a category file the build reads (path below the content folder). */
export function isCategoryPath(rel: string): boolean {
  const parts = rel.split('/');
  return CATEGORY_FILES.includes(parts[parts.length - 1]!) && parts.slice(0, -1).every((part) => !isSkippedName(part));
}

/** A version (`1.2-…`, `8.0`) or a date (`2024-05-…`): digits, a separator and a digit are never a prefix. */
const NOT_A_PREFIX = /^\d+[-_.]\d/;
/** Digits, a separator (`-`, `_` or `.`, spaces around it allowed) and a name that does not start with one. */
const NUMBER_PREFIX = /^(\d+)\s*[-_.]+\s*([^-_.\s].*)$/;

/** A file or folder name (without its extension) without its number prefix, and the prefix's number. */
export function splitNumberPrefix(name: string): { name: string; prefix?: number } {
  if (NOT_A_PREFIX.test(name)) return { name };
  const match = NUMBER_PREFIX.exec(name);
  return match ? { name: match[2]!, prefix: Number(match[1]) } : { name };
}

/** A path (below the content folder, without its extension) with the number prefix of each segment removed. */
export function withoutNumberPrefixes(path: string): string {
  return path
    .split('/')
    .map((segment) => splitNumberPrefix(segment).name)
    .join('/');
}

/**
 * True when the page file `rel` is its folder's own page: its index.md, or its README.md or the page
 * named as the folder while no frontmatter `id` or `slug` names it otherwise (a generated API page, an
 * operation called as its tag's folder, has a slug of its own: it stays a page of the folder).
 */
export function isFolderPage(rel: string, frontmatter: { id?: string; slug?: string }): boolean {
  const parts = rel.split('/');
  const name = splitNumberPrefix(withoutPageExtension(parts[parts.length - 1]!)).name.toLowerCase();
  if (name === 'index') return true;
  if (frontmatter.id !== undefined || frontmatter.slug !== undefined) return false;
  if (name === 'readme') return true;
  const folder = parts[parts.length - 2];
  return folder !== undefined && splitNumberPrefix(folder).name.toLowerCase() === name;
}

/**
 * The names editors give the temporary copies of a safe write: JetBrains' `___jb_tmp___` and
 * `___jb_old___`, a backup's `~`, vim's swap files and its `4913` probe, Emacs' `.#` locks and `#…#`
 * autosaves, GNU sed's `sedXXXXXX`, write-file-atomic's `name.md.<digits>`, and `.tmp`.
 */
export const EDITOR_TEMPORARY = /___jb_(?:tmp|old)___$|~$|\.sw[a-p]$|^4913$|^\.#|^#.*#$|^sed[A-Za-z0-9]{6}$|\.mdx?\.\d+$|\.tmp$/;
