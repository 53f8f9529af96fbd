/**
 * Reading the content folder: every markdown and `_category_.json` file, as text the later stages can
 * trust — valid UTF-8, no byte-order mark, `\n` line ends (Windows editors save CRLF), within the size
 * a page may have. Symbolic links are followed once (a loop or a link to nothing is an error naming
 * it), and a file or folder that cannot be read is an error naming it, never a crash.
 */
import { readdirSync, readFileSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { DocsError, type Diagnostic } from '../util/errors';
import { leadsInside, publishableRoots } from '../util/fs';
import { decodeUtf8 } from '../util/utf8';
import type { SourceFile } from './content';
import { CATEGORY_FILES, isPageName, isSkippedName } from './file-names';
import type { FileStamp, TreeListing } from './unchanged';


/** Markdown and category files of the content folder. */
export interface ContentFiles {
  markdown: SourceFile[];
  categories: SourceFile[];
  /** Each markdown file's mtime as the walk found it, by path (a page git does not track shows it as its last update). */
  modified?: Map<string, number>;
  /**
   * The real paths of the folders and files the walk reached through a symbolic link (`docs serve`
   * watches them: its watcher follows no link, see cli/serve/index.ts), each with the link that led
   * there, as messages name files.
   */
  linked?: Map<string, string>;
}

/** The largest markdown file a build reads: far above any real page, far below what stalls a parser. */
export const MAX_FILE_BYTES = 4 * 1024 * 1024;

/** Text as the stages expect it: without a byte-order mark, with `\n` line ends (CRLF and lone CR too). */
export function normaliseText(text: string): string {
  const bare = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return bare.includes('\r') ? bare.replace(/\r\n?/g, '\n') : bare;
}

/** Why reading failed, in words, from a file-system error code. */
function readFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'is a symbolic link to a file that does not exist';
    case 'ELOOP':
      return 'is a symbolic link that leads back to itself (a loop)';
    case 'EACCES':
    case 'EPERM':
      return 'cannot be read: permission denied';
    case 'EISDIR':
      return 'is a folder, not a file';
    default:
      return `cannot be read (${code ?? (error instanceof Error ? error.message : String(error))})`;
  }
}

/**
 * The text of the page file at `path` (a regular file of `size` bytes) as the walk below reads it, or
 * undefined when the walk would report a problem with it: too large, unreadable, not UTF-8.
 */
export function pageText(path: string, size: number, display: string): string | undefined {
  if (size > MAX_FILE_BYTES) return undefined;
  try {
    const text = decodeUtf8(readFileSync(path), display, []);
    return text === undefined ? undefined : normaliseText(text);
  } catch {
    return undefined;
  }
}

/**
 * Reads every page and category file below `dir` (dot-folders, node_modules and `_`-prefixed names
 * skipped: file-names.ts).
 * `onMarkdown` sees each markdown file as soon as it is read (the build reads it and drops its text).
 * `known` is asked first about each markdown file that is not a symbolic link, with its stats: when
 * it answers true it has the file's read already (read-cache.ts), and the file is listed without
 * being read (its text `''`). `listing` is what the build's input fingerprint saw of the folder a
 * moment before (unchanged.ts): its folders are not listed and its files not stated again.
 */
export function readContentFolder(dir: string, displayPrefix: string, onMarkdown?: (file: SourceFile) => void, known?: (file: SourceFile, stats: FileStamp) => boolean, listing?: TreeListing): ContentFiles {
  const modified = new Map<string, number>();
  /** What the walk reached through a link, by real path (`ContentFiles.linked`). */
  const throughLinks = new Map<string, string>();
  const files: ContentFiles = { markdown: [], categories: [], modified, linked: throughLinks };
  const problems: Diagnostic[] = [];
  let rootReal: string;
  try {
    rootReal = realpathSync.native(dir);
  } catch {
    return files;
  }
  const boundary = publishableRoots(dir);
  /** Folders entered, by real path, so a link back up the tree is entered once. */
  const entered = new Set<string>([rootReal]);
  /** Walks `folder`, whose real path is `real` and whose path below the content folder is `folderRel` ('' for the content folder). */
  const walk = (folder: string, real: string, folderRel: string): void => {
    let entries: Dirent[];
    try {
      entries = listing?.folders.get(folder) ?? readdirSync(folder, { withFileTypes: true });
    } catch (error) {
      problems.push({ file: displayPrefix + folderRel, message: `is a folder that ${readFailure(error)}`, fix: 'make the folder readable, or move it out of the content folder' });
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (isSkippedName(entry.name)) continue;
      const path = join(folder, entry.name);
      // Made from the folder's, not by path.relative: that was a fifth of the walk at 10,000 pages.
      const rel = folderRel === '' ? entry.name : `${folderRel}/${entry.name}`;
      const display = displayPrefix + rel;
      const page = isPageName(entry.name);
      const wanted = page || CATEGORY_FILES.includes(entry.name);
      let isDirectory = entry.isDirectory();
      // A name in another encoding (an old zip, a Windows share) comes decoded with U+FFFD, a path no one can open.
      if (entry.name.includes('\uFFFD') && (wanted || isDirectory)) {
        problems.push({ file: display, message: `is a ${isDirectory ? 'folder' : 'file'} whose name is not valid UTF-8 (written in another encoding, e.g. Latin-1 or Windows-1252), so it cannot be read by its name`, fix: 'rename it in UTF-8 (convmv -f latin1 -t utf8 -r --notest renames a whole tree)' });
        continue;
      }
      if (entry.isSymbolicLink()) {
        try {
          isDirectory = statSync(path).isDirectory();
        } catch (error) {
          // A dangling link to anything but a page is not the build's business (an image it shows is checked where it is used).
          if (wanted) problems.push({ file: display, message: readFailure(error), fix: 'point the link at an existing file, or delete it' });
          continue;
        }
      }
      if (isDirectory && !entry.isSymbolicLink()) {
        // A folder in a folder: its real path is its parent's and its name, and it leads where its parent does.
        const inner = join(real, entry.name);
        if (entered.has(inner)) {
          problems.push({ file: display, message: 'is a folder a symbolic link in the content folder already leads to: its pages would be built twice', fix: 'delete the link, or point it at a folder outside the content folder' });
          continue;
        }
        entered.add(inner);
        walk(path, inner, rel);
        continue;
      }
      if (isDirectory) {
        let linked: string;
        try {
          // One system call (the JavaScript realpath stats every component of the path).
          linked = realpathSync.native(path);
        } catch (error) {
          problems.push({ file: display, message: readFailure(error), fix: 'fix or delete the symbolic link' });
          continue;
        }
        if (!leadsInside(linked, boundary)) {
          problems.push({ file: display, message: 'is a symbolic link to a folder outside the site\'s repository, whose files a build does not publish', fix: 'move or copy the folder into the content folder' });
          continue;
        }
        if (entered.has(linked) || rootReal.startsWith(`${linked}/`)) {
          problems.push({ file: display, message: 'is a symbolic link to a folder that holds it (a loop)', fix: 'delete the link, or point it at a folder outside this tree' });
          continue;
        }
        entered.add(linked);
        throughLinks.set(linked, display);
        walk(path, linked, rel);
        continue;
      }
      if (!wanted) continue;
      let bytes: Buffer;
      try {
        // The fingerprint lists regular files only: any other entry is looked at here.
        const listed = entry.isSymbolicLink() ? undefined : listing?.files.get(path);
        const found = listed ? undefined : statSync(path);
        const stats: FileStamp = listed ?? found!;
        if (entry.isSymbolicLink() && !leadsInside(path, boundary)) {
          problems.push({ file: display, message: 'is a symbolic link to a file outside the site\'s repository, which a build does not publish', fix: 'move or copy the file into the content folder' });
          continue;
        }
        if (entry.isSymbolicLink()) throughLinks.set(realpathSync.native(path), display);
        // A pipe, a socket or a device (a link to /dev/zero, say) would be read forever, or block.
        if (found && !found.isFile()) {
          problems.push({ file: display, message: 'is not a regular file (a pipe, a socket or a device)', fix: 'replace it with a file, or move it out of the content folder' });
          continue;
        }
        const size = stats.size;
        if (size > MAX_FILE_BYTES) {
          const limit = `${MAX_FILE_BYTES / 1024 / 1024} MiB`;
          // A category file is no page: what to do about it is not to split it.
          if (page) problems.push({ file: display, message: `is ${(size / 1024 / 1024).toFixed(1)} MiB, more than a page may be (${limit})`, fix: 'split it into several pages, or link large data as a file instead of pasting it' });
          else problems.push({ file: display, message: `is ${(size / 1024 / 1024).toFixed(1)} MiB, more than a file of the content folder read by the build may be (${limit})`, fix: entry.name.startsWith('_category_.') ? 'a category file holds a label, a position and a description: keep it to those' : 'make it smaller, or keep it outside the content folder' });
          continue;
        }
        if (page) {
          modified.set(rel, stats.mtimeMs);
          const file = { rel, text: '' };
          if (known && !entry.isSymbolicLink() && known(file, stats)) {
            files.markdown.push(file);
            continue;
          }
        }
        bytes = readFileSync(path);
      } catch (error) {
        problems.push({ file: display, message: readFailure(error), fix: 'make the file readable, or move it out of the content folder' });
        continue;
      }
      const text = decodeUtf8(bytes, display, problems);
      if (text === undefined) continue;
      const file = { rel, text: normaliseText(text) };
      if (page) {
        onMarkdown?.(file);
        files.markdown.push(file);
      } else files.categories.push(file);
    }
  };
  walk(dir, rootReal, '');
  if (problems.length > 0) throw new DocsError('content', problems);
  return files;
}
