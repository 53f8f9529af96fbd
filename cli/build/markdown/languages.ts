/**
 * Grammars loaded without the languages they embed, until a code block may enter one.
 *
 * A shiki language's module carries every language its grammar embeds: Ruby's carries HTML, Haml,
 * XML, SQL, GraphQL, CSS, C++, C, JavaScript, shell, Lua and YAML (1.2 MB of grammars, C++'s alone
 * 534 KB), for its heredocs (`<<~SQL`). A thread that highlights Ruby paid ~0.3 s to load and link
 * them all, for blocks that seldom hold a heredoc. Here a language whose grammar reaches another
 * only inside a rule that must match first (a heredoc's `begin`) is registered without them, and
 * those rules' regular expressions are its triggers: before a page's blocks are highlighted, a block
 * of that language in one line of which a trigger matches anywhere has the language made whole — its
 * embedded languages loaded and its grammar made again with them (a grammar resolves its includes when
 * it first builds its rules, so one built without them stays without them). A block no trigger
 * matches never enters such a rule, so its tokens are those of the whole module
 * (test/unit/cli/build/markdown/languages.test.ts compares them). A language whose grammar reaches
 * another outside such a rule, or through a rule anchored where the last match ended (`\G`), which a
 * scan of the line cannot tell, is loaded whole.
 */
import { bundledLanguages, type HighlighterGeneric, type LanguageRegistration, type RegexEngine } from 'shiki';

type Highlighter = HighlighterGeneric<string, string>;

/** What a highlighter deferred. */
interface Deferred {
  engine: RegexEngine;
  /** The languages registered without their embedded ones, by name: the registrations of those, and the triggers. */
  languages: Map<string, { embedded: LanguageRegistration[]; triggers: string[]; scanner?: ReturnType<RegexEngine['createScanner']> }>;
}

const deferredOf = new WeakMap<Highlighter, Deferred>();

/** The name of the empty language whose loading makes `language`'s grammar again (see `makeWhole`). */
const remakeName = (language: string): string => `docs-remake-${language}`;

/** A grammar rule, as far as its includes and the expressions that enter it go. */
interface RawRule {
  include?: string;
  begin?: string;
  match?: string;
  patterns?: RawRule[];
  repository?: Record<string, RawRule>;
  captures?: Record<string, RawRule>;
  beginCaptures?: Record<string, RawRule>;
  endCaptures?: Record<string, RawRule>;
  whileCaptures?: Record<string, RawRule>;
}

/**
 * The expressions one of which must match for `grammar` to reach another grammar: for each include of
 * another scope, the nearest rule around it that is entered by a match. Undefined when an include is
 * reachable without one, or through an expression a scan of a line cannot stand in for (`\G`).
 */
export function embeddingTriggers(grammar: LanguageRegistration): string[] | undefined {
  const own = grammar.scopeName;
  const triggers = new Set<string>();
  let unconditional = false;
  const visit = (rule: RawRule | undefined, entered: string | undefined): void => {
    if (!rule || typeof rule !== 'object' || unconditional) return;
    const include = rule.include;
    if (typeof include === 'string' && !include.startsWith('#') && !include.startsWith('$') && include !== own && !include.startsWith(`${own}#`)) {
      if (entered === undefined) unconditional = true;
      else triggers.add(entered);
    }
    const inside = typeof rule.begin === 'string' ? rule.begin : typeof rule.match === 'string' ? rule.match : entered;
    for (const child of rule.patterns ?? []) visit(child, inside);
    for (const captures of [rule.captures, rule.beginCaptures, rule.endCaptures, rule.whileCaptures]) for (const capture of Object.values(captures ?? {})) visit(capture, inside);
    // A repository rule may be included from anywhere: only its own expression enters it.
    for (const child of Object.values(rule.repository ?? {})) visit(child, undefined);
  };
  visit(grammar as unknown as RawRule, undefined);
  for (const injection of Object.values((grammar as { injections?: Record<string, RawRule> }).injections ?? {})) visit(injection, undefined);
  if (unconditional || [...triggers].some((trigger) => trigger.includes('\\G'))) return undefined;
  return [...triggers];
}

/** Tells `loadLanguages` which engine `highlighter` scans with: without one, every language is loaded whole. */
export function useEngine(highlighter: Highlighter, engine: RegexEngine): void {
  if (!deferredOf.has(highlighter)) deferredOf.set(highlighter, { engine, languages: new Map() });
}

/** Loads `names` (bundled languages or their aliases), each without the languages it embeds when it can be. */
export async function loadLanguages(highlighter: Highlighter, names: readonly string[]): Promise<void> {
  const deferred = deferredOf.get(highlighter);
  const registrations: LanguageRegistration[] = [];
  for (const name of new Set(names)) {
    const load = (bundledLanguages as Record<string, (() => Promise<{ default: LanguageRegistration[] }>) | undefined>)[name];
    if (!load) {
      // Not one of shiki's: shiki names what is wrong, as it did before.
      await highlighter.loadLanguage(name as never);
      continue;
    }
    const module = (await load()).default;
    const main = module[module.length - 1]!;
    const { embeddedLangs, ...rest } = main;
    const triggers = deferred && embeddedLangs?.length && module.length > 1 ? embeddingTriggers(main) : undefined;
    if (!deferred || !triggers) {
      registrations.push(...module);
      continue;
    }
    // Its embedded languages are not listed as lazy ones: shiki makes a grammar again each time one of
    // those is loaded, and Haml lists Ruby as one of its own, so each would make the other again
    // without end. The empty language `makeWhole` loads makes it again once.
    registrations.push({ ...rest, embeddedLangsLazy: [...(main.embeddedLangsLazy ?? []), remakeName(main.name)] });
    deferred.languages.set(main.name, { embedded: module.slice(0, -1), triggers });
  }
  if (registrations.length > 0) await highlighter.loadLanguage(...registrations);
}

/**
 * Makes whole, before they are highlighted, the languages of `blocks` (fence language → the blocks'
 * code) that were loaded without their embedded languages and one of whose blocks may enter one.
 */
export async function prepareBlocks(highlighter: Highlighter, blocks: ReadonlyMap<string, readonly string[]>): Promise<void> {
  const deferred = deferredOf.get(highlighter);
  if (!deferred || deferred.languages.size === 0) return;
  const whole: string[] = [];
  for (const [lang, codes] of blocks) {
    let name: string;
    try {
      name = (highlighter.getLanguage(lang) as unknown as { name: string }).name;
    } catch {
      continue;
    }
    const language = deferred.languages.get(name);
    if (!language || whole.includes(name)) continue;
    language.scanner ??= deferred.engine.createScanner(language.triggers);
    const scanner = language.scanner;
    // Each line as the tokenizer scans it: with its line break.
    if (codes.some((code) => code.split('\n').some((line) => scanner.findNextMatchSync(`${line}\n`, 0, 0) !== null))) whole.push(name);
  }
  if (whole.length > 0) await makeWhole(highlighter, deferred, whole);
}

/** Loads the embedded languages of `languages` and makes their grammars again with them. */
async function makeWhole(highlighter: Highlighter, deferred: Deferred, languages: string[]): Promise<void> {
  const loaded = new Set(highlighter.getLoadedLanguages());
  const registrations: LanguageRegistration[] = [];
  for (const language of languages) {
    for (const registration of deferred.languages.get(language)?.embedded ?? []) {
      // A language loaded already keeps its registration (one loaded without its own embedded languages
      // stays so until a block of its own needs them).
      if (!loaded.has(registration.name) && !registrations.some((other) => other.name === registration.name)) registrations.push(registration);
    }
    deferred.languages.delete(language);
    // Shiki makes a grammar again when a language it lists as embedded lazily is loaded: this empty one,
    // last, once the others are there.
    registrations.push({ name: remakeName(language), scopeName: `source.${remakeName(language)}`, patterns: [], repository: {} });
  }
  await highlighter.loadLanguage(...registrations);
}
