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

/** Answers a request whose target is no URL: 400, and nothing else is read of it. */
export function badTarget(response: ServerResponse): void {
  response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end('Bad request: the request target is not a URL path.');
}
