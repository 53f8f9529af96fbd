/**
 * How search sees text, shared by the index (docs build) and the query (the browser): words are
 * lower-cased and folded (`één` → `een`, `Überlingen` → `uberlingen`), split at anything that is not a
 * letter or digit, and common words of English and Dutch are left out. Stemming happens on the query
 * side only (see engine.ts): the index keeps whole words, so prefix matching while typing and stemming
 * are one mechanism, and a page needs no language of its own.
 */
import { stemmer as stemDutch } from '@orama/stemmers/dutch';
import { stemmer as stemEnglish } from '@orama/stemmers/english';

/** Words too common to tell pages apart, English and Dutch. Never indexed; ignored in a query. */
const STOPWORDS = new Set(
  (
    'a an and are as at be but by for from has have if in into is it its of on or that the their then there these this to was were will with you your ' +
    'de het een en van in is op te dat die der des voor met zijn er aan om als bij ook maar dan wat wordt worden door naar ze je we wij hij zij niet of tot uit over nog al kan moet'
  ).split(' '),
);

/**
 * The words that make a query a question, English and Dutch (`how do I deploy`, `waar vind ik`). They
 * are indexed (`how` alone finds "How Passbolt protects secrets"); a query with other words seeks them
 * as words a result need not have (engine.ts), as Algolia's `optionalWords` would.
 */
export const QUESTION_WORDS = new Set(
  (
    'how what where when why which who whom whose do does did doing done can could should would may might must shall am me my mine we us our ours find ' +
    'hoe wat waar wanneer waarom welk welke wie ik mij mijn jij jou jouw ons onze doe doet doen deed kun kunt zal zou mag vind vinden'
  ).split(' '),
);

/** Lower-cases and removes diacritics: `Één` → `een`. */
export function fold(text: string): string {
  // Most text is ASCII: nothing to decompose.
  const lower = text.toLowerCase();
  return /[^\x00-\x7f]/.test(lower) ? lower.normalize('NFD').replace(/\p{M}+/gu, '') : lower;
}

/** The folded words of a text, in order, stopwords and one-letter words included (for highlighting). */
export function words(text: string): string[] {
  return fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** True when a folded word is worth indexing: not a stopword, and two characters or more (or a number). */
export function indexable(word: string): boolean {
  return (word.length > 1 || /\d/.test(word)) && !STOPWORDS.has(word);
}

/** Words joined by `_`, `-` or `.` with nothing between them: `QUAD_API_URL`, `X-Quad-Version`, `node.js`, `e-mail`. */
const JOINED = /[\p{L}\p{N}]+(?:[_.-][\p{L}\p{N}]+)+/gu;

/**
 * The joined words of a text as one term each, separators left out (`QUAD_API_URL` → `quadapiurl`,
 * `e-mail` → `email`): a reader who types the identifier, or the word written without its hyphen,
 * finds the page that has it whole before pages that have its parts apart. Numbers alone are one only
 * when joined by dots, as versions and addresses are, and keep them (`4.2.0`, `10.24.0.101`; not `420`,
 * which `4.20` would be too): a reader who types a version finds the pages that write it before pages
 * with its digits apart (an address table, a price); dates and ranges (`2024-04-23`, `1-2`) are none.
 * A version inside a joined word is a term of its own as well (`v4.2.0` gives `v420` and `4.2.0`).
 */
export function joinedTerms(text: string): string[] {
  const found: string[] = [];
  for (const [joined] of text.matchAll(JOINED)) {
    const term = /^[\d.]+$/.test(joined) ? joined : words(joined).join('');
    if ((/\p{L}/u.test(term) || term.includes('.')) && indexable(term)) found.push(term);
    // The version in a tag or a name (`v4.2.0`, `release-4.2.0`) is found as the version too.
    if (term !== joined) for (const [version] of joined.matchAll(DOTTED)) found.push(version);
  }
  return found;
}

/** Numbers joined by dots, as versions and addresses are written: `4.2.0`, `10.24.0.101`. */
export const DOTTED = /(?<![\d.])\d+(?:\.\d+)+(?!\d)/g;

/**
 * An API operation's path as one term (`/teams`, `/teams/{teamid}`): folded, without a trailing slash.
 * Only an operation's own path is indexed so (terms.ts), so a query that is a path (`/teams`, `GET
 * /teams`) names the operations on that very path, not those on a longer one with the same words.
 * Undefined for what is no path.
 */
export function pathTerm(path: string): string | undefined {
  const term = fold(path).replace(/(?<=.)\/+$/, '');
  return /^\/[^\s]*$/.test(term) ? term : undefined;
}

/**
 * The path a query is, with or without its method (`/api/login`, `POST /api/login`), as `pathTerm`;
 * a query string or fragment pasted with it (`/teams?limit=10`) left out.
 */
export function queryPath(query: string): string | undefined {
  const path = /^\s*(?:(?:get|put|post|delete|patch|head|options|trace)\s+)?(\/[^\s?#]*)(?:[?#]\S*)?\s*$/i.exec(query)?.[1];
  return path === undefined ? undefined : pathTerm(path);
}

/**
 * Whether an operation's path term (`/teams/{teamid}/laps`) is the template of a path a reader pasted
 * from a log or a request (`/teams/42/laps`): each `{parameter}` stands for one segment.
 */
export function pathMatches(template: string, path: string): boolean {
  if (!template.includes('{')) return false;
  const pattern = template.split(/\{[^}/]*\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('[^/]+');
  return new RegExp(`^${pattern}$`).test(path);
}

/** What `terms` adds besides the words: identifiers' parts, joined words, adjacent words run together. */
export interface TermOptions {
  /**
   * Identifiers (an API operation) also give their parts: `userLogin` gives `user` and `login`; and a
   * path its whole (`/api/login`, `pathTerm`).
   */
  identifiers?: boolean;
  /**
   * Each two adjacent words also give one term run together (`Deep linking` → `deeplinking`, `Log in`
   * → `login`), for the short texts that name a page or a section: titles and headings. Not when the
   * first is a common word: `the password` would make `thepassword`, which `the` being typed finds
   * as the start of a longer word (it should find `theme`), and nobody types it on purpose.
   */
  pairs?: boolean;
}

/**
 * The terms a text adds to the index: its words (`station-id` gives `station` and `id`), the words it
 * joins (`stationid`, `joinedTerms`), and the letters of a word that starts with a number
 * (`24urenloop` gives `urenloop`); see `TermOptions` for the rest.
 */
export function terms(text: string, options: TermOptions = {}): string[] {
  const found = words(text).filter(indexable);
  const more = joinedTerms(text);
  // A word that starts with a number is found by its letters too: `urenloop` finds `24urenloop`.
  for (const word of found) {
    const letters = /^\d+(\p{L}[\p{L}\p{N}]{2,})$/u.exec(word)?.[1];
    if (letters && indexable(letters)) more.push(letters);
  }
  if (options.identifiers) {
    more.push(...(text.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g) ?? []).map(fold).filter(indexable));
    // An operation's path whole (`pathTerm`).
    for (const [path] of text.matchAll(/(?<=^|\s)\/\S*/g)) {
      const term = pathTerm(path);
      if (term) more.push(term);
    }
  }
  if (options.pairs) {
    const all = words(text);
    for (let i = 1; i < all.length; i++) if (indexable(all[i - 1]!)) more.push(all[i - 1]! + all[i]!);
  }
  for (const term of more) if (!found.includes(term)) found.push(term);
  return found;
}

/** The stems of a folded word in both languages the portal is written in (Dutch and English). */
export function stems(word: string): string[] {
  const found = new Set<string>();
  const english = stemEnglish(word);
  for (const stem of [stemDutch(word), english]) if (stem && stem !== word) found.add(stem);
  // The English stemmer ends a word in -y or -ies with i (battery, batteries: batteri), which the
  // singular a page writes does not start with: its -y form is sought too.
  if (english && english.length > 3 && english.endsWith('i')) {
    const singular = `${english.slice(0, -1)}y`;
    if (singular !== word) found.add(singular);
  }
  return [...found];
}

/** The shard a term is stored in: its first character, or its first two when that shard was split. */
export function shardOf(term: string, split: ReadonlySet<string>): string {
  const first = /^[a-z0-9]/.test(term) ? term[0]! : '_';
  if (!split.has(first)) return first;
  const second = term[1];
  return first + (second !== undefined && /^[a-z0-9]$/.test(second) ? second : '_');
}
