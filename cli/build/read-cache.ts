/**
 * The docs of the page files, kept between builds (the build store's `reads`, by the file's path): a
 * rebuild takes the doc (frontmatter, title, route, sidebar, body hash) of every file whose size,
 * mtime and ctime are those it had when it was read, instead of reading and parsing the file again —
 * at 10,000 pages, reading the files was 0.8 s of a one-page edit. A file changed since, a new one, a
 * symbolic link (its target may change without it) or one read with a problem is read as always.
 * Entries are valid for one generator and one set of reading options (sidebars, homepage, content
 * folder); any other gives another key, and the file is read again.
 */
import { hash } from '../util/hash';
import { adoptRead, readDoc, type KeptDoc, type SourceFile } from './content';
import { entryCount, type BuildStore } from './store';
import { statsKey, type FileStamp } from './unchanged';
import { generatorVersion } from './version';

/** What the store keeps of one page file. */
export interface KeptRead {
  /** The generator and the reading options the doc was read under. */
  key: string;
  /** The file's size, mtime and ctime when it was read (`statsKey`). */
  stats: string;
  doc: KeptDoc;
}

/** The reading options a doc depends on, besides the file (content.ts `FileRead.options`). */
type ReadOptions = Parameters<typeof adoptRead>[1];

/** The cache of reads for one build. */
export interface ReadCache {
  /** For `readContentFolder`: true when the file's doc was taken from the store. */
  known: (file: SourceFile, stats: FileStamp) => boolean;
  /**
   * Records the files read anew. With `every` (call it after every page file was read), the entries
   * of files gone since are removed too; without, `files` are some of the site's (cli/build/snapshot.ts).
   */
  save: (files: SourceFile[], every?: boolean) => void;
  /** The paths (`SourceFile.rel`) of the files read anew: new, or changed since they were read. */
  readAnew: () => ReadonlySet<string>;
}

export function readCache(store: BuildStore, options: ReadOptions): ReadCache {
  const key = hash(generatorVersion(), '\0', JSON.stringify([options.sidebars, options.homepageDoc, options.displayPrefix]));
  /** The stats of the files that were read anew, when they were read. */
  const fresh = new Map<string, string>();
  /** Files asked about that the store holds an entry for, current or not. */
  let found = 0;
  return {
    known: (file, stats) => {
      const current = statsKey(stats);
      let kept: KeptRead | undefined;
      try {
        kept = store.reads.get(file.rel);
      } catch {
        kept = undefined;
      }
      if (kept) found++;
      if (kept && kept.key === key && kept.stats === current && typeof kept.doc?.route === 'string') {
        adoptRead(file, options, kept.doc);
        return true;
      }
      fresh.set(file.rel, current);
      return false;
    },
    save: (files, every = true) => {
      const present = new Set(files.map((file) => file.rel));
      for (const file of files) {
        const stats = fresh.get(file.rel);
        const doc = stats === undefined ? undefined : readDoc(file);
        // Unawaited: a write the store does not take costs the next build its speed, not this one.
        if (doc) store.reads.put(file.rel, { key, stats: stats!, doc }).catch(() => undefined);
      }
      // The entries of files gone since: looked for only when the store holds more entries (LMDB keeps
      // the count) than the files asked about found, not by reading every key (40 ms of a one-page edit at 10,000 pages).
      if (every && entryCount(store.reads) > found) for (const rel of store.reads.getKeys()) if (!present.has(rel)) store.reads.remove(rel).catch(() => undefined);
    },
    readAnew: () => new Set(fresh.keys()),
  };
}
