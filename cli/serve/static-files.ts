/**
 * Serves a built site the way a static host does: files as they are, `/a/b` from `a/b/index.html`,
 * and `404.html` with status 404 for anything else. Used by `docs serve` and the end-to-end tests.
 */
import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

/** Content types of the files a build writes. */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

function fileAt(path: string): string | undefined {
  try {
    const stat = statSync(path);
    if (stat.isFile()) return path;
    if (stat.isDirectory()) return fileAt(join(path, 'index.html'));
  } catch {
    // Missing: the caller answers 404.
  }
  return undefined;
}

/** A request handler serving `root`; hashed assets are cached for a year, pages revalidated. */
export function createStaticHandler(root: string): (request: IncomingMessage, response: ServerResponse) => void {
  const base = normalize(root + sep);
  return (request, response) => {
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    } catch {
      pathname = '/';
    }
    const candidate = normalize(join(base, pathname));
    const found = candidate.startsWith(base) ? fileAt(candidate) : undefined;
    const file = found ?? fileAt(join(base, '404.html'));
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    const immutable = found !== undefined && found.startsWith(join(base, 'assets') + sep);
    response.writeHead(found ? 200 : 404, {
      'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    if (request.method === 'HEAD') response.end();
    else createReadStream(file).pipe(response);
  };
}
