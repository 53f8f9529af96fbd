/**
 * `docs serve` as the content's folders change: a folder made while it serves, and symbolic links. Its
 * watcher follows no link (chokidar follows a link into a folder that holds it without end), yet a
 * page reached through a link still updates when its file is saved, and links that loop leave the
 * server answering, its memory where it was.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyFixture } from '../support/site';
import { openEvents, rawRequest, startServe, type ServeProcess } from '../support/serve';

let server: ServeProcess | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** The server process's resident memory, in MiB (Linux). */
const residentMiB = (pid: number): number => Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

describe('docs serve, new folders and symbolic links', () => {
  it('builds the page of a folder made while it serves (the folder itself is no file to read)', async () => {
    const site = copyFixture('basic');
    server = await startServe(site);
    const events = openEvents(server.url);
    await new Promise((resolve) => setTimeout(resolve, 200));
    mkdirSync(join(site, 'content', 'guide', 'ops'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    writeFileSync(join(site, 'content', 'guide', 'ops', 'rotation.md'), '# On-call rotation\n\nThe rotation changes every Monday at noon.\n');
    await events.next('reload', 20_000);
    expect((await rawRequest(server.url, '/guide/ops/rotation')).body.toString('utf8')).toContain('The rotation changes every Monday at noon.');
    expect(server.output()).not.toMatch(/internal error|EISDIR|Build failed/);
    events.close();
  });

  it('updates a page reached through a linked folder when its file is saved', async () => {
    const site = copyFixture('basic');
    mkdirSync(join(site, 'runbooks'));
    const runbook = join(site, 'runbooks', 'restart.md');
    writeFileSync(runbook, '# Restarting the lap counter\n\nStop the counter, then start it again.\n');
    symlinkSync(join('..', '..', 'runbooks'), join(site, 'content', 'guide', 'runbooks'));
    server = await startServe(site);
    const page = async (): Promise<string> => (await rawRequest(server!.url, '/guide/runbooks/restart')).body.toString('utf8');
    expect(await page()).toContain('Stop the counter, then start it again.');
    const events = openEvents(server.url);
    await new Promise((resolve) => setTimeout(resolve, 200));
    writeFileSync(runbook, '# Restarting the lap counter\n\nStop the counter, wait for the beacons to reconnect, then start it again.\n');
    await events.next('reload', 20_000);
    expect(await page()).toContain('wait for the beacons to reconnect');
    events.close();
  });

  it("warns after a save that takes away the section the announcement links to, and stops once it is back", async () => {
    const site = copyFixture('basic');
    writeFileSync(
      join(site, 'site.config.ts'),
      `import { fixtureConfig } from '../_shared/config';\n\nexport default fixtureConfig({ announcement: { id: 'a1', content: 'Check the <a href="/guide/install#requirements">requirements</a> first.', backgroundColor: '#1f4e8c', textColor: '#ffffff', isCloseable: true } });\n`,
    );
    const install = join(site, 'content', 'guide', 'install.md');
    const text = readFileSync(install, 'utf8');
    server = await startServe(site);
    const warning = 'warning site.config.ts#/announcement/content: link → /guide/install#requirements: /guide/install has no heading with the id "requirements"';
    expect(server.output()).not.toContain(warning);
    const events = openEvents(server.url);
    await new Promise((resolve) => setTimeout(resolve, 200));
    writeFileSync(install, text.replace('## Requirements', '## What you need'));
    await events.next('reload', 20_000);
    expect(server.output()).toContain(warning);
    const before = server.output().split(warning).length;
    writeFileSync(install, text);
    await events.next('reload', 20_000);
    expect(server.output().split(warning).length).toBe(before);
    events.close();
  });

  it('reports two folders linked into themselves, and keeps answering without growing', async () => {
    const site = copyFixture('basic');
    symlinkSync('..', join(site, 'content', 'guide', 'loop'));
    symlinkSync('..', join(site, 'content', 'guide', 'round'));
    server = await startServe(site);
    expect(server.output()).toMatch(/content\/guide\/loop: is a symbolic link to a folder that holds it \(a loop\)/);
    expect(server.output()).toContain('Build failed; fix the error and save.');
    const settled = residentMiB(server.child.pid!);
    // Followed, the two links were 2^40 paths to watch: the server grew by some 25 MiB a second.
    await new Promise((resolve) => setTimeout(resolve, 8000));
    const failed = await rawRequest(server.url, '/guide');
    expect(failed.status).toBe(503);
    // A writer the overlay's stream cannot reach (behind the gate, signed out) is told where the errors are.
    expect(failed.body.toString()).toContain('the errors are in the terminal where <code>docs serve</code> runs');
    expect(residentMiB(server.child.pid!)).toBeLessThan(settled + 100);
  });
});
