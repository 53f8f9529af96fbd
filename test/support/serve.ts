/** Helpers for `docs serve` tests: the real CLI in a child process, its event stream, raw HTTP. */
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { REPO } from './site';

/** A running `docs serve`. */
export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** Everything it printed so far. */
  output: () => string;
  /** Resolves with the first match of `pattern` in what the server prints from now on (or from offset `from` of its output). */
  waitFor: (pattern: RegExp, timeoutMs?: number, from?: number) => Promise<string>;
  /** Sends SIGINT and resolves to the exit code. */
  stop: () => Promise<number | null>;
}

/** Starts `docs serve --port 0 …args` in `cwd` and resolves once it listens and has built. */
export async function startServe(cwd: string, args: string[] = [], env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [join(REPO, 'bin', 'docs.mjs'), 'serve', '--port', '0', ...args], { cwd, env: { ...process.env, ...env } });
  let output = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer): void => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const waitFor = (pattern: RegExp, timeoutMs = 20_000, from = output.length): Promise<string> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const match = pattern.exec(output.slice(from));
        if (match) {
          listeners.delete(check);
          clearTimeout(timer);
          resolve(match[0]);
        }
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`docs serve did not print ${pattern} within ${timeoutMs} ms; it printed:\n${output}`));
      }, timeoutMs);
      listeners.add(check);
      check();
    });
  const url = (await waitFor(/docs serve: (http:\/\/\S+)/, 20_000, 0)).replace('docs serve: ', '');
  if (!args.includes('--dist')) await waitFor(/Built \d+ pages|Build failed/, 60_000, 0);
  return {
    url,
    child,
    output: () => output,
    waitFor: (pattern, timeoutMs, from) => waitFor(pattern, timeoutMs, from),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGINT');
      }),
  };
}

/** One server-sent event. */
export interface ServerEvent {
  type: string;
  data: { type: string; routes?: string[]; errors?: string[] };
}

/** Reads the server's event stream; `next(type)` resolves with the next event of that type. */
export function openEvents(url: string): { next: (type: string, timeoutMs?: number) => Promise<ServerEvent>; close: () => void } {
  const controller = new AbortController();
  const events: ServerEvent[] = [];
  const waiting: { type: string; resolve: (event: ServerEvent) => void }[] = [];
  void (async () => {
    try {
      const response = await fetch(`${url}/__docs/events`, { signal: controller.signal });
      const decoder = new TextDecoder();
      let buffer = '';
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const type = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (!type || !data) continue;
          const event = { type, data: JSON.parse(data) as ServerEvent['data'] };
          const waiter = waiting.findIndex((candidate) => candidate.type === type);
          if (waiter === -1) events.push(event);
          else waiting.splice(waiter, 1)[0]!.resolve(event);
        }
      }
    } catch {
      // Closed by the test or the server.
    }
  })();
  return {
    next: (type, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const queued = events.findIndex((event) => event.type === type);
        if (queued !== -1) return resolve(events.splice(queued, 1)[0]!);
        const timer = setTimeout(() => reject(new Error(`no "${type}" event within ${timeoutMs} ms`)), timeoutMs);
        waiting.push({ type, resolve: (event) => (clearTimeout(timer), resolve(event)) });
      }),
    close: () => controller.abort(),
  };
}

/** A raw HTTP answer (no redirect following, no decompression). */
export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Sends one request with exactly `path` (nothing normalised) and `headers`. */
export function rawRequest(url: string, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method: options.method ?? 'GET', headers: options.headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * Resolves once `path` of the server holds `text`; fails after `timeoutMs` with what the server printed
 * (a save it never applied, or applied in an update of several pages, says so).
 */
export async function waitForText(server: ServeProcess, path: string, text: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if ((await rawRequest(server.url, path)).body.toString().includes(text)) return;
    if (Date.now() > deadline) throw new Error(`${path} did not show "${text}" within ${timeoutMs} ms; docs serve printed:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
