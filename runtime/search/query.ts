/**
 * What a query seeks (engine.ts): its words, the words it need not have (a question's own, the
 * identifiers and the path it writes whole), adjacent words run together, and which of them is being
 * typed. React-free and index-free: the engine then finds each sought word's terms in the shards.
 */
import { JOINER } from './match';
import { DOTTED, fold, indexable, joinedTerms, queryPath, QUESTION_WORDS, words } from './text';

/** Two adjacent words of a query, run together. */
export interface Pair {
  term: string;
  /** Where the words it stands for are in the query's words (those the index has). */
  covers: number[];
  /** Its second word is the query's last: the one being typed, unless the query ends in a space. */
  last: boolean;
}

/** Pairs a query seeks at most: a pasted sentence would otherwise ask for a term per word. */
const MAX_PAIRS = 4;

/**
 * The query's adjacent words run together, as the index runs together those of titles and headings
 * (text.ts `terms`, and not after a common word): `24 urenloop` → `24urenloop`, `log in` → `login`.
 * `asked`: the question words of the query (engine.ts), paired with nothing.
 */
export function queryPairs(query: string, queryWords: string[], asked: string[] = []): Pair[] {
  const folded = fold(query);
  const found = [...folded.matchAll(/[\p{L}\p{N}]+/gu)];
  const inOrder = found.map(([word]) => word);
  const pairs: Pair[] = [];
  for (let i = 1; i < inOrder.length && pairs.length < MAX_PAIRS; i++) {
    const [first, second] = [inOrder[i - 1]!, inOrder[i]!];
    const term = first + second;
    // Not numbers the query joins (`4.2.0` is sought as written, text.ts `joinedTerms`: `20` would find
    // `Node.js 20`), nor a question's own words (`how do` → `howdo`): they would take the place of
    // pairs that count.
    const gap = folded.slice(found[i - 1]!.index + first.length, found[i]!.index);
    if ((JOINER.test(gap) && /^\d+$/.test(first + second)) || !indexable(first) || asked.includes(first) || asked.includes(second) || queryWords.includes(term) || pairs.some((pair) => pair.term === term)) continue;
    const covers = [...new Set([first, second].map((word) => queryWords.indexOf(word)).filter((at) => at >= 0))];
    pairs.push({ term, covers, last: i === inOrder.length - 1 });
  }
  return pairs;
}

/** A query taken apart. */
export interface ParsedQuery {
  /** The words a result must have (or a pair holding them). */
  queryWords: string[];
  /** The question's own words (`how`, `waar`), sought as words a result need not have. */
  asked: string[];
  /** The path the query is, sought whole (text.ts `pathTerm`). */
  path?: string;
  /** The words sought besides: the asked words, the query's joined words and its path, in that order. */
  joined: string[];
  pairs: Pair[];
  /** Every word sought: `queryWords`, then `joined`, then the pairs' terms. */
  sought: string[];
  /** Where the pairs start in `sought`. */
  pairsFrom: number;
  /** For each word of the query, the places in `sought` of the pairs that hold it. */
  pairsOf: number[][];
  /** Per word of `sought`: it is being typed (it matches the start of longer words). */
  typing: boolean[];
  /** The query does not end in a space. */
  typingLast: boolean;
  /** The word being typed, if any. */
  typed?: string;
}

/** What `query` seeks; undefined when nothing (empty, or common words typed whole). */
export function parseQuery(query: string): ParsedQuery | undefined {
  // A version or an address (`4.2.0`, `v4.2.0`, `10.24.0.101`) is one word of the query, as the index
  // has it (text.ts `joinedTerms`): its numbers apart would find prices, years and other addresses.
  const numbers = [...new Set(query.match(DOTTED) ?? [])];
  const all = [...new Set([...words(numbers.length > 0 ? query.replace(DOTTED, ' ') : query), ...numbers])];
  const useful = all.filter(indexable);
  // Words the index leaves out (`the`, `een`) are sought only as the start of a word being typed
  // (`the` → `theme`); typed whole, they find nothing (the dialog says why).
  const typingLast = !/\s$/.test(query);
  /** The word being typed: the query's last (a number it ends in, its dot included), unless it ends in a space. */
  const typed = typingLast ? (numbers.find((number) => query.endsWith(number) || query.endsWith(`${number}.`)) ?? words(query).at(-1)) : undefined;
  // The words that make a question a question (`how do I`, `waar vind ik`) are sought as words a
  // result need not have, unless the query has nothing else (or one is being typed): pages seldom
  // write them beside what the reader asks about.
  const asking = useful.filter((word) => QUESTION_WORDS.has(word) && word !== typed);
  const asked = asking.length < useful.length ? asking : [];
  const queryWords = useful.length > 0 ? useful.filter((word) => !asked.includes(word)) : typingLast ? all.slice(-1) : [];
  if (queryWords.length === 0) return undefined;
  // Words the query joins (`QUAD_API_URL`, `node.js`) are sought whole as well, as words a result
  // need not have: a page with the identifier ranks above pages with its parts apart.
  // A query that is a path (`/teams`, `GET /teams`) seeks it whole too: the operations on that very
  // path have it (text.ts `pathTerm`), and are named by the query as a page by its title.
  const path = queryPath(query);
  const fromQuery = joinedTerms(query).filter((term) => !queryWords.includes(term) && !asked.includes(term));
  const joined = [...asked, ...fromQuery, ...(path ? [path] : [])];
  /** The joined word being typed: the query's last, when the query ends in one. */
  const typingJoined = typingLast && /[_.-][\p{L}\p{N}]+$/u.test(query) ? fromQuery.at(-1) : undefined;
  // Two words typed apart that the pages write as one (`24 urenloop` → `24urenloop`, `log in` →
  // `login`): the pair is sought too, and stands in for both its words (`queryPairs`).
  const pairs = queryPairs(query, queryWords, asked).filter(({ term }) => !joined.includes(term));
  const sought = [...queryWords, ...joined, ...pairs.map(({ term }) => term)];
  /** Where the pairs start in `sought`. */
  const pairsFrom = queryWords.length + joined.length;
  /** For each word of the query, the places in `sought` of the pairs that hold it. */
  const pairsOf = queryWords.map((_, word) => pairs.flatMap(({ covers }, at) => (covers.includes(word) ? [pairsFrom + at] : [])));
  const typing = sought.map((word, index) => {
    const pair = pairs[index - pairsFrom];
    return pair ? typingLast && pair.last : word === path ? typingLast : index >= queryWords.length ? word === typingJoined : word === typed;
  });
  return { queryWords, asked, path, joined, pairs, sought, pairsFrom, pairsOf, typing, typingLast, typed };
}
