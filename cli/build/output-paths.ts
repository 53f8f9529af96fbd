/**
 * The paths of an output a build records with their stamps (unchanged.ts): every file, and every
 * folder holding one. Made from the output's files, or, on a rebuild, from the last build's paths and
 * the files that differ.
 */
import { dirname } from 'node:path';

/**
 * The output paths to fingerprint: every file, and every folder holding one (a file added, removed or
 * renamed in it changes its mtime). A file changed in place (emptied, edited, overwritten) changes its
 * own stats: the next build is a full one, and writes that file again (`presentFiles`).
 */
export function outputPaths(files: Iterable<string>, written: Iterable<string>): string[] {
  const paths = new Set<string>(['', ...written, ...files]);
  const dirs = new Set<string>();
  for (const file of files) {
    for (let dir = dirname(file); dir !== '.' && !dirs.has(dir); dir = dirname(dir)) dirs.add(dir);
  }
  return [...paths, ...dirs].sort();
}

/**
 * `outputPaths(files)` from `paths`, the output paths of a build that left the files `before`: the
 * same list, made in time proportional to the files that differ instead of to the output. A one-page
 * edit renames its page's data chunk (its name hashes its content), and listing and sorting the
 * 37,500 paths of a 10,000-page output again was 30–50 ms of its end.
 */
export function outputPathsAfter(paths: readonly string[], before: readonly string[], files: ReadonlySet<string>): string[] {
  const had = new Set(before);
  const added = [...files].filter((file) => !had.has(file));
  const removed = new Set(before.filter((file) => !files.has(file)));
  // Many changes (a new version of docs renames every data chunk): made afresh, one sort of the whole list.
  if (added.length + removed.size > 256 + paths.length / 16) return outputPaths(files, []);
  const kept = removed.size > 0 ? paths.filter((path) => !removed.has(path)) : [...paths];
  // The added files, and each folder above one that the list does not have yet.
  const adding = new Set<string>();
  for (const file of added) {
    adding.add(file);
    for (let dir = dirname(file); dir !== '.' && !adding.has(dir) && !sortedHas(kept, dir); dir = dirname(dir)) adding.add(dir);
  }
  const list = mergeSorted(kept, [...adding].sort());
  // A folder above a removed file that holds nothing the list has any more goes, the deepest first.
  const emptied = new Set<string>();
  for (const file of removed) for (let dir = dirname(file); dir !== '.'; dir = dirname(dir)) emptied.add(dir);
  for (const dir of [...emptied].sort((a, b) => b.length - a.length)) {
    const below = lowerBound(list, `${dir}/`);
    if (below < list.length && list[below]!.startsWith(`${dir}/`)) continue;
    const at = lowerBound(list, dir);
    if (list[at] === dir) list.splice(at, 1);
  }
  return list;
}

/** The first place in `list` (sorted as `Array.prototype.sort` sorts strings) whose item is not below `item`. */
function lowerBound(list: readonly string[], item: string): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (list[middle]! < item) low = middle + 1;
    else high = middle;
  }
  return low;
}

function sortedHas(list: readonly string[], item: string): boolean {
  return list[lowerBound(list, item)] === item;
}

/** One sorted list of the items of two sorted lists (`b`'s items are not in `a`). */
function mergeSorted(a: readonly string[], b: readonly string[]): string[] {
  if (b.length === 0) return [...a];
  const merged: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) merged.push(a[i]! < b[j]! ? a[i++]! : b[j++]!);
  while (i < a.length) merged.push(a[i++]!);
  while (j < b.length) merged.push(b[j++]!);
  return merged;
}
