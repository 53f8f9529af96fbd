/**
 * One client never ends `docs serve` (probe 6-C H1): a client holding connections until the process has
 * no file descriptor left made the next file opened fail, which ended the server, the gated host
 * included; and connections that never finish their request are closed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, REPO, runDocs } from '../support/site';

let server: ChildProcess;
let port = 0;
let output = '';

/** Starts `docs serve --dist` with at most `files` open file descriptors. */
function serveWithFewFiles(dist: string, files: number): Promise<number> {
  server = spawn('sh', ['-c', `ulimit -n ${files}; exec "$0" "$@"`, process.execPath, join(REPO, 'bin', 'docs.mjs'), 'serve', '--port', '0', '--dist', dist]);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`docs serve did not start:\n${output}`)), 20_000);
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      const found = /docs serve: http:\/\/[^:]+:(\d+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(Number(found[1]));
      }
    };
    server.stdout!.on('data', read);
    server.stderr!.on('data', read);
  });
}

/** A connection to the server, once open. */
function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Sends a whole GET on `socket` and resolves with the status line of the answer ('' when the connection closed first). */
function get(socket: Socket, path: string): Promise<string> {
  return new Promise((resolve) => {
    let answer = '';
    const done = (): void => resolve(answer.split('\r\n')[0] ?? '');
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n')) done();
    });
    socket.once('close', done);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  });
}

beforeAll(async () => {
  const root = copyFixture('basic');
  const dist = join(root, 'dist');
  expect(runDocs(['build', '--root', root]).code).toBe(0);
  port = await serveWithFewFiles(dist, 96);
}, 120_000);

afterAll(() => {
  server?.kill('SIGKILL');
});

describe('docs serve under a flood of connections', () => {
  it('answers 503 when no file can be opened, and goes on once the client lets go', async () => {
    const early = await open();
    // Hold connections until the process has no descriptor left (the kernel's backlog takes the rest).
    const held: Socket[] = [];
    for (let i = 0; i < 160; i++) held.push(await open().catch(() => connect(port, '127.0.0.1').on('error', () => undefined)));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await get(early, '/favicon.svg')).toMatch(/^HTTP\/1\.1 503 /);
    for (const socket of held) socket.destroy();
    early.destroy();
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Still there: the same file, and a page.
    expect(await get(await open(), '/favicon.svg')).toBe('HTTP/1.1 200 OK');
    expect(await get(await open(), '/guide/install')).toBe('HTTP/1.1 200 OK');
    expect(server.exitCode).toBeNull();
    expect(output).not.toMatch(/internal error/);
  }, 60_000);

  it('closes a connection whose request never ends, with a 408', async () => {
    const socket = await open();
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
    const started = Date.now();
    socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    // Headers within 10 s, checked every 2 s.
    expect((await closed) - started).toBeLessThan(15_000);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(await get(await open(), '/guide/install')).toBe('HTTP/1.1 200 OK');
  }, 30_000);
});
