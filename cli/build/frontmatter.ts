/** Frontmatter: split it from the body, parse its YAML and validate its keys, with source lines. */
import { parseDocument } from 'yaml';
import type { Diagnostic } from '../util/errors';
import { textPlace } from '../util/text-place';
import { s, validateShape, type Shape } from '../util/validate';
import { blanked, FENCE, frontmatterEnd } from './frontmatter-body';

export { frontmatterBody } from './frontmatter-body';

/** The frontmatter keys a page may set (Docusaurus names). */
export interface Frontmatter {
  /** Replaces the file name in the doc id and route. */
  id?: string;
  /** Page title (h1, `<title>`, sidebar label by default). */
  title?: string;
  /** Shorter label for the sidebar. */
  sidebar_label?: string;
  /** Order among siblings (lower first). */
  sidebar_position?: number;
  /** Route of the page: absolute (`/x`) or replacing the last segment. */
  slug?: string;
  /** Meta description. */
  description?: string;
  /** Hide the table of contents. */
  hide_table_of_contents?: boolean;
  /** Hide the page's h1 made from its title (Docusaurus: an h1 the body opens with still shows). */
  hide_title?: boolean;
  /** Meta keywords. */
  keywords?: string[];
  /** Extra classes of the page's sidebar link, e.g. `api-method api-method-post`. */
  sidebar_class_name?: string;
  /** The highest heading level in the page's table of contents (2–6; the site's by default). */
  toc_min_heading_level?: number;
  /** The lowest heading level in the page's table of contents (2–6; the site's by default). */
  toc_max_heading_level?: number;
  /** The page's "Edit this page" link (an http(s) URL), or `null` for none; else the site's edit URL and the file's path. */
  custom_edit_url?: string | null;
  /** The page's label in its neighbours' previous/next links (else its sidebar label). */
  pagination_label?: string;
  /** The page the "Next" link leads to, by id; `null`: none. Else the next page of the sidebar. */
  pagination_next?: string | null;
  /** The page the "Previous" link leads to, by id; `null`: none. Else the previous page of the sidebar. */
  pagination_prev?: string | null;
  /** `false`: the number prefix of this page's file name is part of its name (`2-factor.md` is `/2-factor`), as in Docusaurus. */
  parse_number_prefixes?: boolean;
  /** The page's "Last updated" date and author, each in place of what git (or the file's time) says. */
  last_update?: { date?: string; author?: string };
}

/**
 * Docusaurus keys a page may carry that change nothing here (pagination, tags, per-page TOC depth, a
 * social image…): accepted and left out, so a Docusaurus docs folder builds as it is. README lists them.
 */
const IGNORED_DOCUSAURUS_KEYS = new Set([
  'sidebar_key',
  'sidebar_custom_props',
  'displayed_sidebar',
  'image',
  'tags',
]);

/** Docusaurus keys that keep a page from readers there: every page of the content folder is published here, so `true` is refused. */
const HIDING_KEYS: Record<string, string> = { draft: 'leaves the page out of a Docusaurus production build', unlisted: 'hides the page from Docusaurus sidebars and search' };

/**
 * The keys `validated` reads one by one (their values may be null, or they change nothing here): in
 * the shape as keys of any value, never checked there, so that an unknown key's fix names every key
 * a page may set and a typo of one of them gets its guess.
 */
const KEYS_READ_APART = ['custom_edit_url', 'pagination_next', 'pagination_prev', ...Object.keys(HIDING_KEYS), ...IGNORED_DOCUSAURUS_KEYS];

const frontmatterShape: Shape = s.object({
  id: s.optional(s.string()),
  title: s.optional(s.string()),
  sidebar_label: s.optional(s.string()),
  sidebar_position: s.optional(s.number()),
  slug: s.optional(s.string()),
  description: s.optional(s.string()),
  hide_table_of_contents: s.optional(s.boolean()),
  hide_title: s.optional(s.boolean()),
  pagination_label: s.optional(s.string()),
  toc_min_heading_level: s.optional(s.integer('2 to 6')),
  toc_max_heading_level: s.optional(s.integer('2 to 6')),
  keywords: s.optional(s.array(s.string())),
  sidebar_class_name: s.optional(s.string()),
  parse_number_prefixes: s.optional(s.boolean()),
  last_update: s.optional(s.object({ date: s.optional(s.string('e.g. "2025-03-14"')), author: s.optional(s.string()) }, '{ date: 2025-03-14, author: Jane Doe }')),
  ...Object.fromEntries(KEYS_READ_APART.map((key) => [key, s.ignored()])),
});

/** A markdown source split into frontmatter and body. */
export interface SplitSource {
  frontmatter: Frontmatter;
  /** The markdown after the frontmatter block, with the frontmatter lines blanked so positions stay true. */
  body: string;
  problems: Diagnostic[];
}

/** A line of a frontmatter block: `key: value`, `key:`, a list item, a comment. */
const SETTING = /^(?:[A-Za-z_][\w-]*\s*[:=]|\s+\S|-\s|#)/;

/**
 * A block that was meant as frontmatter and is not read as one, which the page would show as text:
 * YAML after blank lines (frontmatter starts on the first line), or TOML between `+++` lines.
 */
function misplacedFrontmatter(lines: string[], file: string): Diagnostic[] {
  let first = 0;
  while (first < lines.length && lines[first]!.trim() === '') first++;
  const fence = lines[first]?.replace(/\r$/, '').trimEnd();
  if (fence !== '---' && fence !== '+++') return [];
  const close = lines.findIndex((line, i) => i > first && line.replace(/\r$/, '').trimEnd() === fence);
  const inside = close > first + 1 ? lines.slice(first + 1, close).filter((line) => line.trim() !== '') : [];
  if (inside.length === 0 || !inside.every((line) => SETTING.test(line))) return [];
  if (fence === '+++') return [{ file, line: first + 1, column: 1, message: 'holds TOML frontmatter (between +++ lines), which is not read: the page would show it as text', fix: 'write it as YAML between --- lines, e.g. `title: Install` instead of `title = "Install"`' }];
  if (first === 0) return [];
  return [{ file, line: first + 1, column: 1, message: `has its frontmatter after ${first === 1 ? 'a blank line' : `${first} blank lines`}, where it is not read: the page would show it as text`, fix: 'remove the blank lines above the opening ---: frontmatter starts on the first line' }];
}

/** Splits and validates the frontmatter of `text` (file path `file` for messages). */
export function parseFrontmatter(text: string, file: string): SplitSource {
  const { lines, end } = frontmatterEnd(text);
  if (end === 0) return { frontmatter: {}, body: text, problems: misplacedFrontmatter(lines, file) };
  if (end === -1) {
    return {
      frontmatter: {},
      body: text,
      problems: [{ file, line: 1, column: 1, message: 'frontmatter is not closed', fix: 'end the frontmatter block with a line `---`' }],
    };
  }
  const yamlText = lines.slice(1, end).join('\n');
  const body = blanked(lines, end);
  const simple = simpleYaml(yamlText);
  if (simple) return validated(simple, lines, end, body, file);
  const doc = parseDocument(yamlText, { prettyErrors: false });
  if (doc.errors.length > 0) {
    return {
      frontmatter: {},
      body,
      problems: doc.errors.map((error) => ({
        file,
        ...positionIn(yamlText, error.pos[0]),
        message: `frontmatter is not valid YAML: ${error.message.split('\n')[0]}`,
        fix: error.code === 'DUPLICATE_KEY' ? 'keep one line of each key: remove or rename the other' : 'quote values that contain `:` or `#`, and indent nested keys with spaces',
      })),
    };
  }
  let value: unknown;
  try {
    value = doc.toJS() ?? {};
  } catch (error) {
    // Parsed but not convertible: an alias (`*name`) to an anchor that is not set, for one.
    const message = (error as Error).message.split('\n')[0] ?? 'cannot be read';
    const alias = /alias.*?: (.+)$/.exec(message)?.[1];
    const at = alias === undefined ? -1 : lines.slice(1, end).findIndex((line) => line.includes(`*${alias}`));
    return {
      frontmatter: {},
      body,
      problems: [{ file, line: at === -1 ? 2 : at + 2, message: `frontmatter is not valid YAML: ${message}`, fix: 'a value starting with `*` or `&` is YAML syntax: put it in quotes, e.g. title: "*Seed"' }],
    };
  }
  return validated(value, lines, end, body, file);
}

/** The frontmatter checked against the keys a page may set. */
function validated(value: unknown, lines: string[], end: number, body: string, file: string): SplitSource {
  const problems: Diagnostic[] = [];
  let own = value;
  /** The keys whose values may be null (which the shapes cannot say), checked one by one below. */
  const special: Pick<Frontmatter, 'pagination_next' | 'pagination_prev' | 'custom_edit_url'> = {};
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const kept: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (IGNORED_DOCUSAURUS_KEYS.has(key)) continue;
      // A page id, or null for no link (which the shapes cannot say): checked here, resolved by content.ts.
      if (key === 'custom_edit_url') {
        // An address on every reader's page: http(s) only (a javascript: link would run in the reader's session).
        if (item === null || (typeof item === 'string' && /^https?:\/\/[^\s]+$/i.test(item.trim()))) special[key] = item === null ? null : item.trim();
        else problems.push({ file, line: lineOfKey(lines, end, key), message: `frontmatter \`custom_edit_url\` must be an http(s) address or null, got ${JSON.stringify(item)}`, fix: 'write the full address of the page in the repository (https://…), or custom_edit_url: null for no edit link' });
        continue;
      }
      if (key === 'pagination_next' || key === 'pagination_prev') {
        if (item === null || (typeof item === 'string' && item.trim() !== '')) special[key] = item;
        else problems.push({ file, line: lineOfKey(lines, end, key), message: `frontmatter \`${key}\` must be a page's id or null, got ${JSON.stringify(item)}`, fix: `write the id of the page it leads to (e.g. ${key}: guide/install), or ${key}: null for no link` });
        continue;
      }
      // A YAML merge key (`<<: *defaults`): the parser here keeps it as a key of its own, merging nothing.
      if (key === '<<') {
        problems.push({ file, line: lineOfKey(lines, end, key), message: 'frontmatter `<<` (a YAML merge key) is not supported: it merges nothing into the page\'s keys', fix: 'write the keys it would merge in this frontmatter itself' });
        continue;
      }
      if (Object.hasOwn(HIDING_KEYS, key)) {
        if (item === true) problems.push({ file, line: lineOfKey(lines, end, key), message: `frontmatter \`${key}: true\` ${HIDING_KEYS[key]}; docs publishes every page in the content folder`, fix: `start its file name with \`_\` (\`_draft.md\`), which no build publishes, or remove \`${key}\`` });
        continue;
      }
      // Defined, not assigned: a key `__proto__` stays a key (and is reported as unknown).
      Object.defineProperty(kept, key, { value: item, enumerable: true, writable: true, configurable: true });
    }
    own = kept;
  }
  for (const p of validateShape(own, { ...frontmatterShape, doc: 'key: value lines' })) {
    problems.push({ file, line: lineOfKey(lines, end, p.path.split(/[.[]/)[0] ?? ''), message: `frontmatter \`${p.path}\` ${p.message}`, fix: p.fix });
  }
  if (problems.length === 0) problems.push(...tocLevelProblems(own as Frontmatter, lines, end, file), ...lastUpdateProblems(own as Frontmatter, lines, end, file));
  return { frontmatter: problems.length > 0 ? {} : { ...(own as Frontmatter), ...special }, body, problems };
}

/** The page's table of contents levels as Docusaurus takes them: each 2–6, the first not past the second. */
function tocLevelProblems(frontmatter: Frontmatter, lines: string[], end: number, file: string): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const { toc_min_heading_level: min, toc_max_heading_level: max } = frontmatter;
  for (const [key, level] of [['toc_min_heading_level', min], ['toc_max_heading_level', max]] as const) {
    if (level !== undefined && (level < 2 || level > 6)) problems.push({ file, line: lineOfKey(lines, end, key), message: `frontmatter \`${key}\` is ${level}, not a heading level from 2 to 6`, fix: 'write 2 (h2) to 6 (h6)' });
  }
  if (problems.length === 0 && min !== undefined && max !== undefined && min > max) problems.push({ file, line: lineOfKey(lines, end, 'toc_min_heading_level'), message: `frontmatter \`toc_min_heading_level\` (${min}) is past \`toc_max_heading_level\` (${max})`, fix: 'make the first the smaller, e.g. 2 and 4' });
  return problems;
}

/** `last_update` as Docusaurus takes it: a date a reader's calendar has, an author, or both. */
function lastUpdateProblems({ last_update: given }: Frontmatter, lines: string[], end: number, file: string): Diagnostic[] {
  if (given === undefined) return [];
  const line = lineOfKey(lines, end, 'last_update');
  if (given.date === undefined && given.author === undefined) return [{ file, line, message: 'frontmatter `last_update` gives neither `date` nor `author`', fix: 'write `date: 2025-03-14`, `author: Jane Doe` or both below it, or remove `last_update`' }];
  if (given.date !== undefined && lastUpdateTime(given.date) === undefined) {
    // The date's own line, below the key's (or on it, in `last_update: { date: … }`).
    const below = lines.slice(line, end).findIndex((text) => /^\s+date\s*:/.test(text));
    const dateLine = below === -1 ? line : line + below + 1;
    return [{ file, line: dateLine, message: `frontmatter \`last_update.date\` is not a date: ${JSON.stringify(given.date)}`, fix: 'write the date as year-month-day, e.g. 2025-03-14 (or 2025-03-14T09:30:00Z with a time)' }];
  }
  return [];
}

/** Milliseconds since the epoch of a `last_update.date` (`2025-03-14`, or with a time), or undefined when it names no day of the calendar. */
export function lastUpdateTime(date: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(date.trim());
  if (!match) return undefined;
  // A time without a zone is UTC, as a date alone is: the build machine's zone must not move the day.
  const written = date.trim().replace(' ', 'T');
  const time = Date.parse(written.length > 10 && match[4] === undefined ? `${written}Z` : written);
  // `Date.parse` rolls 2025-02-30 over into March: the day must be the one written.
  if (Number.isNaN(time) || new Date(Date.UTC(+match[1]!, +match[2]! - 1, +match[3]!)).getUTCDate() !== +match[3]!) return undefined;
  return time;
}

/** File line and column of an offset into the frontmatter text (which starts on the file's line 2). */
function positionIn(yamlText: string, offset: number): { line: number; column: number } {
  const { line, column } = textPlace(yamlText, offset);
  return { line: line + 1, column };
}

/** File line of `key:` in the frontmatter of `text`, or undefined when it is not there. */
export function frontmatterKeyLine(text: string, key: string): number | undefined {
  // Read line by line up to the closing fence: every page with a `slug` or `id` asks, and its body
  // may be long.
  let start = text.indexOf('\n') + 1;
  if (start === 0 || !FENCE.test(text.slice(0, start - 1))) return undefined;
  for (let line = 2; start > 0 && start < text.length; line++) {
    const end = text.indexOf('\n', start);
    const row = end === -1 ? text.slice(start) : text.slice(start, end);
    if (FENCE.test(row)) return undefined;
    if (row.startsWith(`${key}:`)) return line;
    start = end + 1;
  }
  return undefined;
}

function lineOfKey(lines: string[], end: number, key: string): number {
  const index = lines.slice(1, end).findIndex((line) => line.startsWith(`${key}:`));
  return index === -1 ? 1 : index + 2;
}

/** A value `simpleYaml` leaves to the YAML parser. */
const NOT_SIMPLE = Symbol('not simple');

/**
 * A scalar as YAML 1.2's core schema reads it, for the forms frontmatter nearly always takes: a
 * quoted string without escapes, or a plain value without `:`, `#` or quotes that starts with a
 * letter, a digit, `/` or `(` (`true`/`false`, a decimal number, `null`, else a string).
 */
function simpleScalar(raw: string): unknown {
  if (raw === '') return null;
  if (/^"[^"\\]*"$/.test(raw) || /^'[^']*'$/.test(raw)) return raw.slice(1, -1);
  if (!/^[A-Za-z0-9/(][^:#"'\t\r]*$/.test(raw)) return NOT_SIMPLE;
  if (/^(?:[Tt]rue|TRUE)$/.test(raw)) return true;
  if (/^(?:[Ff]alse|FALSE)$/.test(raw)) return false;
  if (/^(?:[Nn]ull|NULL)$/.test(raw)) return null;
  if (/^0[xo]/.test(raw)) return NOT_SIMPLE;
  if (/^(?:[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(raw)) return Number(raw);
  return raw;
}

/**
 * Frontmatter made only of `key: scalar` lines (see `simpleScalar`), read without the YAML parser,
 * which costs more than all the rest of reading the content. Undefined for anything else (nesting,
 * lists, comments, repeated keys, other scalars): the YAML parser reads those and reports errors.
 * Exported for the test that holds it to the YAML parser's reading.
 */
export function simpleYaml(text: string): Record<string, unknown> | undefined {
  const value: Record<string, unknown> = {};
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const match = /^([A-Za-z_][A-Za-z0-9_]*):(?: +(.*?))? *$/.exec(line);
    // `__proto__` would set the object's prototype, not a key: the YAML parser keeps it as a key.
    if (!match || Object.hasOwn(value, match[1]!) || match[1] === '__proto__') return undefined;
    const scalar = simpleScalar(match[2] ?? '');
    if (scalar === NOT_SIMPLE) return undefined;
    value[match[1]!] = scalar;
  }
  return value;
}
