/**
 * The names a spec gives its reference pages' sidebar, held to the length limit of label-length.ts:
 * `info.title` (the API's sidebar category and overview title), each operation's `summary` (its page's
 * title and sidebar label; its `operationId` when it has none) and first tag (a category). Every page of
 * the sidebar embeds them all, so a 250 kB summary on a few hundred operations wrote gigabytes. Checked
 * on the spec as written (a path item a `$ref` brings from another file is not looked into).
 */
import { MAX_LABEL_CHARACTERS, overLimit, tooLong, WHY } from '../label-length';
import { METHODS } from './pages';
import { escapeToken } from './refs';
import type { SchemaProblem } from './schema-check';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The problems of `spec`'s sidebar names longer than MAX_LABEL_CHARACTERS, or blank where nothing takes
 * their place (`info.title`, a tag: a blank summary gives way to the operationId), each at its JSON
 * pointer: named at the spec's line, not in the generated page that would carry them.
 */
export function specLabelProblems(spec: unknown): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const check = (value: unknown, pointer: string, what: string, shown: string, blank = false): void => {
    if (blank && typeof value === 'string' && value.trim() === '') {
      problems.push({ pointer, message: `${what} is ${value === '' ? 'empty' : 'blank'}: ${shown}`, fix: 'give it a name, e.g. the API\'s or the group\'s as readers know it' });
      return;
    }
    const length = typeof value === 'string' ? overLimit(value) : undefined;
    if (length !== undefined) problems.push({ pointer, message: `${what} ${tooLong(length, 'a sidebar label')}: ${shown}`, fix: `shorten it to ${MAX_LABEL_CHARACTERS.toLocaleString('en-GB')} characters or fewer (the longer text belongs in \`description\`); ${WHY}` });
  };
  if (!isObject(spec)) return problems;
  /** Tags already reported: one is named by many operations, and said once, at its first. */
  const tags = new Set<string>();
  if (isObject(spec.info)) check(spec.info.title, '/info/title', '`info.title`', 'it names the API in the sidebar and titles its overview, on every page of the sidebar', true);
  for (const group of ['paths', 'webhooks']) {
    const items = spec[group];
    if (!isObject(items)) continue;
    for (const [name, item] of Object.entries(items)) {
      if (!isObject(item)) continue;
      for (const method of METHODS) {
        const operation = item[method];
        if (!isObject(operation)) continue;
        const at = `/${group}/${escapeToken(name)}/${method}`;
        check(operation.summary, `${at}/summary`, 'the operation\'s `summary`', 'it titles the operation\'s page and names it in the sidebar, on every page of the sidebar');
        if (operation.summary === undefined) check(operation.operationId, `${at}/operationId`, 'the operation\'s `operationId`, its page\'s title without a `summary`,', 'it names the page in the sidebar, on every page of the sidebar');
        const tag: unknown = Array.isArray(operation.tags) ? operation.tags[0] : undefined;
        if (typeof tag === 'string' && !tags.has(tag)) {
          tags.add(tag);
          check(tag, `${at}/tags/0`, 'the operation\'s first tag', 'it names a category of the sidebar, on every page of the sidebar', true);
        }
      }
    }
  }
  return problems;
}
