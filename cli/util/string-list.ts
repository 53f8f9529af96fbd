/**
 * A list of strings as one string, for the output record a build keeps in its store for the next (the
 * output's files, the index's files and keys): tens of thousands of strings at 10,000 pages, which
 * msgpack writes and reads one by one, where one string is one copy (the record's encoding took 15–27
 * ms in a fresh process, 2.5 ms as one string). For strings without a NUL character: paths, hashes.
 * (Not for JSON, which escapes every NUL: unchanged.json keeps its arrays.)
 */

/** `list` as one string: each item after a NUL, so that `[]` and `['']` differ. */
export function joinList(list: readonly string[]): string {
  return list.length === 0 ? '' : `\0${list.join('\0')}`;
}

/** The list `joinList` made `text` of; an array (a record written before lists were joined) is taken as it is. */
export function splitList(text: unknown): string[] | undefined {
  if (Array.isArray(text)) return text.every((item) => typeof item === 'string') ? text : undefined;
  if (typeof text !== 'string') return undefined;
  return text === '' ? [] : text.slice(1).split('\0');
}
