/**
 * Local images (and other files a link names): each is copied to `assets/images/NAME.HASH.EXT`
 * (`assets/files/` for what is not an image), named after its bytes, so a changed
 * image gets a new URL and browsers never show a stale copy. Whatever reuses a page's earlier output
 * or markdown checks its images against their current bytes first.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { hash } from '../util/hash';
import { leadsInside, publishableRoots } from '../util/fs';

/** An image a page uses: its path below the content folder and its output file (below the output folder). */
export interface PageImage {
  source: string;
  file: string;
}

/** Extensions shown as images; other linked files go to `assets/files/`. */
const IMAGE = /^\.(?:png|jpe?g|gif|svg|webp|avif|ico|bmp)$/i;

/** The output file an image's current bytes belong in, with the bytes; undefined when it does not exist. */
export function readImage(contentDir: string, rel: string): { file: string; bytes: Buffer } | 'outside' | undefined {
  const path = join(contentDir, rel);
  let bytes: Buffer;
  try {
    if (!statSync(path).isFile()) return undefined;
    if (!leadsInside(path, publishableRoots(contentDir))) return 'outside';
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  // Only characters a URL carries as written: `my report#2.pdf` → `my-report-2.HASH.pdf`.
  const name = rel.split('/').pop()!.replace(/[^A-Za-z0-9._-]+/g, '-');
  const dot = name.lastIndexOf('.');
  const digest = hash(bytes).slice(0, 8);
  const folder = dot > 0 && IMAGE.test(name.slice(dot)) ? 'images' : 'files';
  return { file: `assets/${folder}/${dot > 0 ? `${name.slice(0, dot)}.${digest}${name.slice(dot)}` : `${name}.${digest}`}`, bytes };
}

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
      known.set(source, (file = typeof image === 'object' ? image.file : null));
    }
    return file;
  };
  return (images) => images.every((image) => fileOf(image.source) === image.file);
}
