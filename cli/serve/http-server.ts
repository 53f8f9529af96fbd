/**
 * The HTTP server of `docs serve` (the writer's and the gated host): made so that no one client ends
 * it or holds it, opened in the writer's browser, and closed with its streams.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { LiveChannel } from './live';
import { answerFailure } from './request-url';

/**
 * Connections that send no request, or only part of one, are closed: a client holding thousands of them
 * used up the process's file descriptors, and the next file opened failed (headers within 10 s, the
 * whole request within 30 s, checked every 2 s). A reader's stream of reloads is an answer, not a
 * request: it is not cut.
 */
const SERVER_LIMITS: ServerOptions = { headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 2_000, keepAliveTimeout: 5_000 };

/** A server answering with `answer`; a request it throws on, at once or later, gets a 404 or 503 (`answerFailure`), never the end of the process. */
export function createGuardedServer(answer: (request: IncomingMessage, response: ServerResponse) => void): Server {
  return createServer(SERVER_LIMITS, (request, response) => {
    try {
      answer(request, response);
    } catch (error) {
      answerFailure(response, error);
    }
  });
}

/** Opens `url` in the default browser (`--open`); nothing when there is none. */
export function openBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  spawn(command, [url], { stdio: 'ignore', detached: true })
    .on('error', () => undefined)
    .unref();
}

/** Closes the server: the live-reload streams first, then every connection. */
export async function closeServer(server: Server, live: LiveChannel): Promise<void> {
  live.close();
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
}
