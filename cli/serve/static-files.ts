/**
 * Serves a built site the way a static host does: files as they are, `/a/b` from `a/b/index.html`,
 * and `404.html` with status 404 for anything else. Used by `docs serve` and the end-to-end tests.
 * `docs serve` adds what a good host does: redirects from `.html` paths, ETags, gzip, and a script
 * injected into pages (live reload).
 */
import { createReadStream, readFileSync, statSync, type Stats } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { answerFailure, badTarget, requestUrl } from './request-url';

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

/** Types worth compressing. */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt']);

/** Options of `createStaticHandler`. */
export interface StaticOptions {
  /** Redirect `/a/b.html` and `/a/b/index.html` to `/a/b` (301); `/a/b/` is served as it is. @default false */
  redirectHtml?: boolean;
  /** ETag headers and 304 answers. @default false */
  etag?: boolean;
  /** gzip text files for clients that accept it. @default false */
  compress?: boolean;
  /** HTML put before `</body>` of every page served. */
  inject?: string;
  /** Send each page's Content-Security-Policy (its `<meta http-equiv>`) as a header too. @default false */
  cspHeader?: boolean;
}

/** The policy a page declares in its `<meta http-equiv="Content-Security-Policy">`. */
export function pagePolicy(html: string): string | undefined {
  const content = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/i.exec(html)?.[1];
  return content?.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&amp;/g, '&');
}

interface Found {
  path: string;
  stat: Stats;
}

function fileAt(path: string): Found | undefined {
  try {
    const stat = statSync(path);
    if (stat.isFile()) return { path, stat };
    if (stat.isDirectory()) return fileAt(join(path, 'index.html'));
  } catch {
    // Missing: the caller answers 404.
  }
  return undefined;
}

/**
 * The route a `.html` path stands for (`/a/b.html`, `/a/b/index.html` → `/a/b`), or undefined. Leading
 * slashes are one: `//evil.example.html` must not become `Location: //evil.example`, another site.
 */
function bareRoute(pathname: string): string | undefined {
  let bare: string;
  if (/\/index\.html?$/i.test(pathname)) bare = pathname.replace(/\/index\.html?$/i, '');
  else if (/\.html?$/i.test(pathname)) bare = pathname.replace(/\.html?$/i, '');
  else return undefined;
  return `/${bare.replace(/^[/\\]+/, '')}`;
}

/**
 * A file whose name carries its content's hash (`app.QZW33VG7.js`, `d-0.e375ec54aa.json`): a browser
 * may keep it for good. Anything else below `assets/` (the search index's entry, `index.json`, which
 * names the others) changes under the same name and is checked again on every use.
 */
function isHashedName(path: string): boolean {
  return /\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9]+$/.test(path);
}

/** Per request: what `createStaticHandler` answers for a path with no file. */
export interface ServeCall {
  /** A plain `404 Not found` instead of the site's `404.html` (whose layout shows the announcement). */
  plainNotFound?: boolean;
  /** The path may name a dot-folder (the gate's own sign-in shell); a reader's request never may. */
  hidden?: boolean;
}

/** A path with a part that starts with a dot (`.env`, `.git/config`, `.docs-gate/`), `.well-known` aside. */
const DOTTED = /\/\.(?!well-known(?:\/|$))[^/]*/;

/**
 * The policy of a file a browser runs as a document when it is opened, not a page: an SVG, an XML file.
 * Nothing in it runs (the build refuses such files with scripts; this holds for anything else put there).
 */
const DOCUMENT_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";

/** A request handler serving `root` (a function, so the folder may be replaced between requests). */
export function createStaticHandler(root: string | (() => string), options: StaticOptions = {}): (request: IncomingMessage, response: ServerResponse, call?: ServeCall) => void {
  const compressed = new Map<string, { mtime: number; body: Buffer }>();
  const answer = (request: IncomingMessage, response: ServerResponse, call: ServeCall): void => {
    const base = normalize((typeof root === 'string' ? root : root()) + sep);
    const url = requestUrl(request);
    if (!url) return badTarget(response);
    let pathname: string;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('Bad request: the path is not valid UTF-8.');
      return;
    }
    const candidate = normalize(join(base, pathname));
    // `..` (encoded or not), a backslash or a NUL never reaches outside the folder.
    if (!candidate.startsWith(base) || pathname.includes('\0') || pathname.includes('\\')) {
      response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end('Forbidden: the path leaves the site.');
      return;
    }
    if (options.redirectHtml) {
      const bare = bareRoute(url.pathname);
      if (bare !== undefined) {
        response.writeHead(301, { location: bare + url.search }).end();
        return;
      }
    }
    // A dotfile is never a page of the site: a finished build served as it is (--dist) may hold a
    // `.env` or a `.git` folder someone left there.
    const found = DOTTED.test(pathname) && !call.hidden ? undefined : fileAt(candidate);
    // A static site takes no form or upload: a POST to a page answered 200 would tell a script it
    // worked. (A path with no file is 404 whatever the method.)
    if (found && request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end(`Method not allowed: ${request.method ?? 'this method'} changes nothing on a static site; use GET.`);
      return;
    }
    const file = found ?? (call.plainNotFound ? undefined : fileAt(join(base, '404.html')));
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    const extension = extname(file.path).toLowerCase();
    const immutable = found !== undefined && found.path.startsWith(join(base, 'assets') + sep) && isHashedName(found.path);
    const headers: Record<string, string> = {
      'content-type': TYPES[extension] ?? 'application/octet-stream',
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    };
    const inject = extension === '.html' ? options.inject : undefined;
    const html = extension === '.html' && (inject !== undefined || options.cspHeader) ? readFileSync(file.path, 'utf8') : undefined;
    const policy = html !== undefined && options.cspHeader ? pagePolicy(html) : undefined;
    if (policy) headers['content-security-policy'] = policy;
    else if (extension === '.svg' || extension === '.xml' || extension === '.xhtml' || extension === '.xsl') headers['content-security-policy'] = DOCUMENT_POLICY;
    if (options.etag) {
      const tag = `W/"${file.stat.size.toString(36)}-${Math.round(file.stat.mtimeMs).toString(36)}${inject ? '-i' : ''}"`;
      headers.etag = tag;
      if (found && request.headers['if-none-match'] === tag) {
        response.writeHead(304, headers).end();
        return;
      }
    }
    const status = found ? 200 : 404;
    const gzip = options.compress && COMPRESSIBLE.has(extension) && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    if (!gzip && html === undefined) {
      if (request.method === 'HEAD') return void response.writeHead(status, headers).end();
      // Answered once the file is open: a file gone since its check, or no descriptor left, is a 404 or 503, not a crash.
      const stream = createReadStream(file.path);
      stream.once('error', (error) => answerFailure(response, error));
      stream.once('open', () => stream.pipe(response.writeHead(status, headers)));
      response.once('close', () => stream.destroy());
      return;
    }
    let body: Buffer = html === undefined ? readFileSync(file.path) : Buffer.from(inject ? html.replace('</body>', `${inject}</body>`) : html);
    if (gzip) {
      const key = `${file.path}\0${inject ?? ''}`;
      const cached = compressed.get(key);
      if (cached && cached.mtime === file.stat.mtimeMs) body = cached.body;
      else {
        body = gzipSync(body);
        compressed.set(key, { mtime: file.stat.mtimeMs, body });
      }
      headers['content-encoding'] = 'gzip';
      headers.vary = 'accept-encoding';
    }
    headers['content-length'] = String(body.length);
    response.writeHead(status, headers);
    response.end(request.method === 'HEAD' ? undefined : body);
  };
  return (request, response, call = {}) => {
    try {
      answer(request, response, call);
    } catch (error) {
      answerFailure(response, error);
    }
  };
}
