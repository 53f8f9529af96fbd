/**
 * Starts shiki's highlighter with the Oniguruma engine read from shiki's own `onig.wasm`. Shiki's
 * default loader takes the same bytes from a module that holds them gzipped in base64 (`shiki/wasm`):
 * importing it, decoding and unzipping cost each thread ~110 ms before its first page (three times
 * that while the other threads start beside it); reading the file costs 2–8 ms.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createHighlighter, type HighlighterGeneric } from 'shiki';
import { createOnigurumaEngine } from 'shiki/engine/oniguruma';
import type { MarkdownOptions } from './index';
import { loadLanguages, useEngine } from './languages';
import { sharePatterns } from './shared-patterns';

/** The theme and the languages a highlighter starts with. */
export type HighlightSettings = Pick<MarkdownOptions, 'codeTheme' | 'highlightLanguages'>;

/** The WebAssembly of shiki's regular-expression engine, as shiki publishes it. */
function onigurumaWasm(): Uint8Array {
  return readFileSync(createRequire(import.meta.url).resolve('shiki/onig.wasm'));
}

/**
 * A highlighter with `settings`' theme and languages loaded, each without the languages its grammar
 * embeds until a block needs them (languages.ts); more languages load on demand.
 */
export async function startHighlighter(settings: HighlightSettings): ReturnType<typeof createHighlighter> {
  // An instantiator, not the bytes: given bytes, shiki first asks whether they are a `Response`, and
  // Node's first look at `Response` loads its whole fetch implementation (140 ms of a thread's start).
  // Each expression compiled once, whichever rule states list it (shared-patterns.ts).
  const engine = sharePatterns(await createOnigurumaEngine({ instantiator: (imports) => WebAssembly.instantiate(onigurumaWasm(), imports) }));
  const highlighter = await createHighlighter({ themes: [settings.codeTheme], langs: [], engine });
  const generic = highlighter as unknown as HighlighterGeneric<string, string>;
  useEngine(generic, engine);
  await loadLanguages(generic, settings.highlightLanguages);
  return highlighter;
}
