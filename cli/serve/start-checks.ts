/**
 * What stops `docs serve` before it serves: a `--dist` that is no build, an address it cannot listen
 * on. Each is a usage error (exit 2) that says what to pass, never an internal error with a stack.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DocsError } from '../util/errors';

/** A usage error unless `dist` is a folder holding a build (its `index.html` or `404.html`). */
export function checkDist(dist: string): void {
  const fix = 'pass the folder `docs build` wrote, e.g. --dist dist (build it first with docs build)';
  const stats = statSync(dist, { throwIfNoEntry: false });
  if (!stats) throw new DocsError('usage', [{ file: 'docs serve', message: `--dist ${dist}: there is no such folder`, fix }]);
  if (!stats.isDirectory()) throw new DocsError('usage', [{ file: 'docs serve', message: `--dist ${dist}: it is a file, not a folder`, fix }]);
  if (!existsSync(join(dist, 'index.html')) && !existsSync(join(dist, '404.html'))) throw new DocsError('usage', [{ file: 'docs serve', message: `--dist ${dist}: it holds no built site (no index.html or 404.html)`, fix }]);
}

/** A usage error for an address the server cannot listen on (a port in use, a host that is not this machine's), or undefined. */
export function listenProblem(error: NodeJS.ErrnoException, host: string, port: number): DocsError | undefined {
  const problems: Record<string, [string, string]> = {
    EADDRINUSE: [`port ${port} is in use (another docs serve, or another server)`, `stop the other server, or pass another port: --port ${port + 1}`],
    EACCES: [`port ${port} needs more rights than this user has`, 'pass a port from 1024 up: --port 3000'],
    EADDRNOTAVAIL: [`${host} is no address of this machine`, 'pass an address of this machine: --host 127.0.0.1 (or 0.0.0.0 for every interface)'],
    ENOTFOUND: [`${host} is no host name this machine knows`, 'pass an address of this machine: --host 127.0.0.1 (or 0.0.0.0 for every interface)'],
    EAI_AGAIN: [`${host} is no host name this machine knows (it could not be looked up)`, 'pass an address of this machine: --host 127.0.0.1 (or 0.0.0.0 for every interface)'],
  };
  const known = error.code === undefined ? undefined : problems[error.code];
  return known && new DocsError('usage', [{ file: 'docs serve', message: `cannot listen on ${host}:${port}: ${known[0]}`, fix: known[1] }]);
}
