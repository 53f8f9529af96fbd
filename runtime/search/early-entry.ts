/**
 * The search index's entry point, asked for the moment the dialog opens, beside the dialog's own code,
 * when that code is not in yet (the first opening of a page): the dialog asks for the entry point only
 * once it is drawn, and its first query would wait for the two requests one after the other. The
 * dialog's engine takes this answer (`takeEntry`) instead of asking again. Kept out of the dialog's
 * chunk: the navbar's button, in every page's first load, asks.
 */

/**
 * The entry point's address: engine.ts's default base and `index.json` (format.ts). Written out, not
 * imported: format.ts in the first load would be shared with the dialog's chunk, 69 B more gzip.
 */
export const ENTRY_URL = '/assets/search/index.json';

/** How long an answer asked for early is taken: an older one may predate a deploy (engine.ts asks again after a minute). */
const FRESH_MS = 10_000;

let early: { url: string; at: number; response: Promise<Response> } | undefined;

/** Asks for the entry point now, revalidated with the server as the engine asks for it. */
export function askEntryEarly(url = ENTRY_URL): void {
  const response = fetch(url, { credentials: 'same-origin', cache: 'no-cache' });
  // A failure is the dialog's to say, when it takes this answer.
  response.catch(() => undefined);
  early = { url, at: Date.now(), response };
}

/** The answer `askEntryEarly` got for `url`, once, when it is recent; otherwise undefined. */
export function takeEntry(url: string): Promise<Response> | undefined {
  const taken = early;
  early = undefined;
  return taken && taken.url === url && Date.now() - taken.at < FRESH_MS ? taken.response : undefined;
}
