/**
 * Live reload for `docs serve`: server-sent events (`reload`, `build-error`, `ok`) to every open page, and the small script the dev
 * server injects into pages. A rebuild reloads the pages it changed (the runtime restores their scroll
 * position; the other tabs forget what they fetched of those pages); a failed build shows an overlay with the errors over the last good page until the file is fixed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PAGES_CHANGED_EVENT } from '../../runtime/router/loader';

/** The URL of the event stream. */
export const EVENTS_PATH = '/__docs/events';
/** The URL of the client script. */
export const CLIENT_PATH = '/__docs/live.js';

/** What the pages are told. */
export type LiveEvent = { type: 'reload'; routes: string[] } | { type: 'build-error'; errors: string[] } | { type: 'ok' };

/** The open event streams, and the last error so a page opened while it lasts shows it too. */
export class LiveChannel {
  /** Each open stream, with the request that opened it (its cookie says whose it is). */
  private readonly clients = new Map<ServerResponse, IncomingMessage | undefined>();
  private lastError: LiveEvent | undefined;

  /** Takes an `EventSource` request. */
  connect(response: ServerResponse, request?: IncomingMessage): void {
    response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
    response.write('retry: 500\n\n');
    if (this.lastError) response.write(frame(this.lastError));
    this.clients.set(response, request);
    response.on('close', () => this.clients.delete(response));
  }

  /**
   * Ends every stream whose request `keep` no longer admits: the gate turned on while it was open, or
   * its reader logged out. It names routes and quotes pages; a page that still wants it asks again.
   */
  prune(keep: (request: IncomingMessage) => boolean): void {
    for (const [response, request] of this.clients) {
      if (request && keep(request)) continue;
      response.end();
      this.clients.delete(response);
    }
  }

  /** True while the last event sent was a failed build's (every page opened since shows it). */
  get failing(): boolean {
    return this.lastError !== undefined;
  }

  /** Sends an event to every open page. */
  send(event: LiveEvent): void {
    this.lastError = event.type === 'build-error' ? event : undefined;
    for (const client of this.clients.keys()) client.write(frame(event));
  }

  /** Ends every stream (shutdown). */
  close(): void {
    for (const client of this.clients.keys()) client.end();
    this.clients.clear();
  }
}

function frame(event: LiveEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** The script tag the dev server puts into every page. */
export const CLIENT_TAG = `<script type="module" src="${CLIENT_PATH}"></script>`;

/** The browser side: reload on `reload`, overlay on `error`, clear it on `ok`. Plain JavaScript. */
export const CLIENT_SCRIPT = `// docs serve: live reload and the error overlay.
const source = new EventSource(${JSON.stringify(EVENTS_PATH)});
const OVERLAY = 'docs-error-overlay';
function hide() {
  document.getElementById(OVERLAY)?.remove();
}
function show(errors) {
  hide();
  const overlay = document.createElement('div');
  overlay.id = OVERLAY;
  overlay.setAttribute('role', 'alertdialog');
  overlay.setAttribute('aria-label', 'Build failed');
  overlay.style.cssText = 'position:fixed;inset:0;z-index:2147483647;background:rgba(16,16,18,.94);color:#f3f3f3;font:14px/1.5 ui-monospace,Menlo,Consolas,monospace;padding:2rem;overflow:auto';
  const title = document.createElement('h2');
  title.textContent = 'Build failed';
  title.style.cssText = 'color:#ff7b72;margin:0 0 1rem;font:700 1.4rem system-ui,sans-serif';
  const list = document.createElement('pre');
  list.className = 'docs-error-list';
  list.style.cssText = 'white-space:pre-wrap;margin:0 0 1rem';
  list.textContent = errors.join('\\n\\n');
  // No page underneath while no build has succeeded: the server's own notice, which the overlay replaces.
  const first = document.getElementById('docs-first-build');
  if (first) first.hidden = true;
  const hint = document.createElement('p');
  hint.textContent = first ? 'Fix the file and save: this page reloads by itself.' : 'Fix the file and save: this page reloads by itself. The last good version is still served underneath.';
  hint.style.cssText = 'color:#a8a8ad;font-family:system-ui,sans-serif';
  const close = document.createElement('button');
  close.type = 'button';
  close.textContent = 'Close';
  close.onclick = hide;
  close.style.cssText = 'font:inherit;padding:.3rem .9rem;cursor:pointer';
  overlay.append(title, list, hint, close);
  document.body.append(overlay);
}
// A tab reloads when its page changed; the others forget what they fetched of the changed pages (the
// runtime cancels the event for them: runtime/router/loader.ts PAGES_CHANGED_EVENT). The site builds
// again: an error shown goes.
source.addEventListener('reload', (event) => {
  hide();
  const routes = JSON.parse(event.data).routes;
  const changed = new CustomEvent(${JSON.stringify(PAGES_CHANGED_EVENT)}, { detail: routes, cancelable: true });
  if (routes.includes('*') || dispatchEvent(changed)) location.reload();
});
source.addEventListener('build-error', (event) => show(JSON.parse(event.data).errors));
source.addEventListener('ok', hide);
`;
