/**
 * Local images (and other files a link names): each is copied to `assets/images/NAME.HASH.EXT`
 * (`assets/files/` for what is not an image), named after its bytes, so a changed
 * image gets a new URL and browsers never show a stale copy. Whatever reuses a page's earlier output
 * or markdown checks its images against their current bytes first.
 */
import { readFileSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { hash } from '../util/hash';
import { shortenUtf8 } from '../util/utf8';
import type { ResolvedFile } from './markdown/index';
import { leadsInside, publishableRoots } from '../util/fs';

/** An image a page uses: its path below the content folder and its output file (below the output folder). */
export interface PageImage {
  source: string;
  file: string;
}

/** Extensions shown as images; other linked files go to `assets/files/`. */
const IMAGE = /^\.(?:png|jpe?g|gif|svg|webp|avif|ico|bmp)$/i;

/**
 * Files a browser runs as documents when they are opened (not shown in an <img>): an SVG, an HTML or
 * XML file. Published on the site's origin, a script in one reads the documentation with the reader's
 * session; the pages' own HTML is cleaned of such things (raw-html.ts), these files are refused.
 */
const ACTIVE = /\.(?:svg|html?|xhtml?|xht|xml|xslt?|mht(?:ml)?)$/i;
/** A script element, an `on…=` handler, a `javascript:` or HTML `data:` link, or an element that embeds another document. */
const ACTIVE_CONTENT = /<script\b|<[a-z][^<>]{0,4000}?\son[a-z-]+\s*=|javascript\s*:|data\s*:\s*text\/html|<(?:foreignObject|iframe|embed|object|handler|listener)\b|<\?xml-stylesheet\b/i;

/** The largest file a link may name: Node reads no more into one buffer, and a page's reader would wait for ever. */
export const MAX_LINKED_BYTES = 2 ** 31 - 1;

/** Why a file a page names is there but cannot be published, in words that follow its path. */
export interface Unpublishable {
  problem: string;
  /** What to do about it, when it is not the usual (another file, another path). */
  fix?: string;
}

/**
 * The output file an image's current bytes belong in, with the bytes; undefined when it does not
 * exist, 'outside' when a link leads out of the repository, and why not when it is there but cannot
 * be copied (a folder, a pipe or device, a file no one may read, one past `MAX_LINKED_BYTES`).
 */
export function readImage(contentDir: string, rel: string): { file: string; bytes: Buffer } | 'outside' | Unpublishable | undefined {
  const path = join(contentDir, rel);
  let bytes: Buffer;
  try {
    const stats = statSync(path);
    // A link out of the repository says so first, whatever it leads to.
    if (!leadsInside(path, publishableRoots(contentDir))) {
      if (!leadsInside(path, publishableRoots(contentDir), true)) return 'outside';
      return { problem: 'is a symbolic link into a private place of the repository (its history in .git, keys in .ssh, passwords in .env…), which a build never publishes' };
    }
    if (stats.isDirectory()) return { problem: 'is a folder, not a file' };
    if (!stats.isFile()) return { problem: 'is not a regular file (a pipe, a socket or a device), which a build cannot copy' };
    if (stats.size > MAX_LINKED_BYTES) return { problem: `is ${(stats.size / 2 ** 30).toFixed(1)} GiB, more than a build copies (2 GiB)` };
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    if (code === 'EACCES' || code === 'EPERM') return { problem: 'cannot be read: permission denied' };
    if (code === 'ELOOP') return { problem: 'is a symbolic link that leads back to itself (a loop)' };
    return { problem: `cannot be read (${code ?? (error instanceof Error ? error.message : String(error))})` };
  }
  if (ACTIVE.test(rel) && ACTIVE_CONTENT.test(bytes.toString('latin1'))) {
    const svg = /\.svg$/i.test(rel);
    return {
      problem: `is ${svg ? 'an SVG image' : 'a document'} that holds a script, an event handler or a javascript: link: opened from the site, it would run on the site's origin, where it can read every page of the documentation`,
      fix: svg ? 'remove its scripts, event handlers and javascript: links (export the drawing again as a plain SVG), or show a PNG instead' : 'remove its scripts, event handlers and javascript: links, or link a PDF or plain-text copy instead',
    };
  }
  // Letters, digits, `.`, `_` and `-` of any script (`café.zip` stays `café.HASH.zip`, in NFC so a
  // name saved on macOS is the name linked); the rest go: `my report#2.pdf` → `my-report-2.HASH.pdf`.
  const name = rel.split('/').pop()!.normalize('NFC').replace(/[^\p{L}\p{M}\p{N}._-]+/gu, '-');
  const dot = name.lastIndexOf('.');
  const digest = hash(bytes).slice(0, 8);
  const folder = dot > 0 && IMAGE.test(name.slice(dot)) ? 'images' : 'files';
  // A file name takes 255 bytes at most: a long (legal) name keeps its start, the hash keeps it apart.
  const extension = dot > 0 ? name.slice(dot) : '';
  // Never a dotfile, which hosts often refuse to serve (nginx's `location ~ /\.`, Jekyll, Apache's
  // defaults): `.hidden.svg` is `hidden.HASH.svg`, `...svg` is `HASH.svg`.
  const stem = shortenUtf8(dot > 0 ? name.slice(0, dot) : name, MAX_NAME_BYTES - Buffer.byteLength(extension) - digest.length - 1).replace(/^\.+/, '');
  return { file: `assets/${folder}/${stem === '' ? '' : `${stem}.`}${digest}${extension}`, bytes };
}

/**
 * A `resolveImage` (markdown/index.ts) that reads each image as a page's is and keeps its output file
 * and bytes in `into`, to be written with the site-wide files: the announcement's images.
 */
export function imageCollector(contentDir: string, into: Map<string, Buffer>): (rel: string) => ResolvedFile {
  return (rel) => {
    const image = readImage(contentDir, rel);
    if (image === 'outside') return false;
    if (!image || 'problem' in image) return image;
    into.set(image.file, image.bytes);
    return `/${image.file}`;
  };
}

/** The longest output file name, in bytes: what the common filesystems take (ext4, APFS, NTFS), with room to spare. */
const MAX_NAME_BYTES = 200;

/**
 * A check that images still have the bytes their output files were named after. Each image is read
 * once however many pages show it (`known` remembers its current file, or null when it is gone).
 */
export function imageChecker(contentDir: string): (images: PageImage[]) => boolean {
  const known = new Map<string, string | null>();
  const fileOf = (source: string): string | null => {
    let file = known.get(source);
    if (file === undefined) {
      const image = readImage(contentDir, source);
      known.set(source, (file = typeof image === 'object' && 'file' in image ? image.file : null));
    }
    return file;
  };
  return (images) => images.every((image) => fileOf(image.source) === image.file);
}

/** The images the pages show from outside `contentDir` (a path that does not start with it), by path. */
export function imagesOutside(results: { images: PageImage[] }[], contentDir: string): Set<string> {
  const outside = new Set<string>();
  for (const result of results) {
    for (const image of result.images) {
      const path = resolve(contentDir, image.source);
      if (!path.startsWith(contentDir + sep)) outside.add(path);
    }
  }
  return outside;
}
