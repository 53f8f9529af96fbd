/**
 * The URL of a request, read the way every handler of `docs serve` reads it. A request target is
 * whatever the client wrote on its first line, and not every one is a URL: `//` (a scheme-relative
 * reference with no host), `//x:abc/`, `http://a:99999/` throw in `new URL`, and one request once
 * ended the whole server that way, the gated host included.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The request's URL against this host (`/a?b` → `http://localhost/a?b`), or undefined when its target is no URL. */
export function requestUrl(request: IncomingMessage): URL | undefined {
  try {
    return new URL(request.url ?? '/', 'http://localhost');
  } catch {
    return undefined;
  }
}

/**
 * Answers a request its handler failed on (a file removed between its check and its opening, too many
 * open files while clients hold connections): 404 for a file gone, 503 otherwise, or the connection
 * closed when the answer had begun. The server goes on: one request never ends it.
 */
export function answerFailure(response: ServerResponse, error: unknown): void {
  if (response.headersSent) return void response.destroy();
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return void response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end('Not found');
  response.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'retry-after': '1' }).end('The server cannot answer this request now; try again in a moment.');
}

/** Answers a request whose target is no URL: 400, and nothing else is read of it. */
export function badTarget(response: ServerResponse): void {
  response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end('Bad request: the request target is not a URL path.');
}
