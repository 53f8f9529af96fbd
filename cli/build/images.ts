/**
 * Local images: each is copied to `assets/images/NAME.HASH.EXT`, named after its bytes, so a changed
 * image gets a new URL and browsers never show a stale copy. Whatever reuses a page's earlier output
 * or markdown checks its images against their current bytes first.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hash } from '../util/hash';

/** An image a page uses: its path below the content folder and its output file (below the output folder). */
export interface PageImage {
  source: string;
  file: string;
}

/** The output file an image's current bytes belong in, with the bytes; undefined when it does not exist. */
export function readImage(contentDir: string, rel: string): { file: string; bytes: Buffer } | undefined {
  const path = join(contentDir, rel);
  if (!existsSync(path)) return undefined;
  const bytes = readFileSync(path);
  const name = rel.split('/').pop()!;
  const dot = name.lastIndexOf('.');
  const digest = hash(bytes).slice(0, 8);
  return { file: `assets/images/${dot > 0 ? `${name.slice(0, dot)}.${digest}${name.slice(dot)}` : `${name}.${digest}`}`, bytes };
}

/**
 * A check that images still have the bytes their output files were named after. Each image is read
 * once however many pages show it (`known` remembers its current file, or null when it is gone).
 */
export function imageChecker(contentDir: string): (images: PageImage[]) => boolean {
  const known = new Map<string, string | null>();
  const fileOf = (source: string): string | null => {
    let file = known.get(source);
    if (file === undefined) known.set(source, (file = readImage(contentDir, source)?.file ?? null));
    return file;
  };
  return (images) => images.every((image) => fileOf(image.source) === image.file);
}
