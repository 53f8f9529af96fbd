import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_PASSWORD } from '../../cli/serve/dev-login';
import { SearchEngine } from '../../runtime/search/engine';
import { copyFixture, REPO, runDocs } from '../support/site';
import { openEvents, rawRequest, startServe, waitForText, type ServeProcess } from '../support/serve';

describe('docs serve', () => {
  let site: string;
  let server: ServeProcess;
  beforeAll(async () => {
    site = copyFixture('basic');
    server = await startServe(site);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const page = async (path: string): Promise<string> => (await rawRequest(server.url, path)).body.toString('utf8');
  /** The moment an editor takes between the steps of a save, long enough for the watcher to see each. */
  const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 300));
  const edit = (rel: string, change: (text: string) => string): void => {
    const file = join(site, 'content', rel);
    writeFileSync(file, change(readFileSync(file, 'utf8')));
  };

  it('binds to 127.0.0.1 and lists the development accounts', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.output()).toContain('member@quad.example (quad_member)');
    expect(server.output()).toContain('admin@quad.example (admin, one-time code 123456)');
    expect(server.output()).toContain('alumnus@quad.example (alumnus)');
  });

  it('re-renders a saved page, tells open pages to reload, and serves the new HTML', async () => {
    const events = openEvents(server.url);
    await new Promise((resolve) => setTimeout(resolve, 200));
    edit('guide/install.md', (text) => `${text}\nA sentence added while serving.\n`);
    const reload = await events.next('reload');
    expect(reload.data.routes).toEqual(['/guide/install']);
    expect(await page('/guide/install')).toContain('A sentence added while serving.');
    expect(server.output()).toMatch(/Updated \/guide\/install in \d+ ms/);
    events.close();
  });

  it.each([
    ['a JetBrains IDE', async (file: string, text: string): Promise<void> => {
      writeFileSync(`${file}___jb_tmp___`, text);
      await pause();
      renameSync(file, `${file}___jb_old___`);
      renameSync(`${file}___jb_tmp___`, file);
      await pause();
      rmSync(`${file}___jb_old___`);
    }],
    ['GNU sed -i', async (file: string, text: string): Promise<void> => {
      const temporary = join(dirname(file), 'sedX4rT9q');
      writeFileSync(temporary, text);
      await pause();
      renameSync(temporary, file);
    }],
  ])('updates only the saved page when %s saves it through a temporary file', async (_, save) => {
    const events = openEvents(server.url);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = server.output().length;
    const file = join(site, 'content', 'guide', 'faq.md');
    const marker = `Saved safely ${Math.random().toString(36).slice(2)}.`;
    await save(file, `${readFileSync(file, 'utf8')}\n${marker}\n`);
    const reload = await events.next('reload');
    expect(reload.data.routes).toEqual(['/guide/faq']);
    expect(await page('/guide/faq')).toContain(marker);
    // Give a full build the time it would take to show; none comes.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(server.output().slice(before)).not.toMatch(/Built \d+ pages/);
    events.close();
  });

  it('keeps the search index current after a save', async () => {
    const search = (query: string): Promise<string[]> => {
      // A fresh engine each time: the index's entry point changed, and shards are cached per engine.
      const engine = new SearchEngine(async (url) => JSON.parse(await page(url)) as unknown);
      return engine.search(query).then((results) => results.map((result) => result.url));
    };
    expect(await search('quetzalcoatl')).toEqual([]);
    const events = openEvents(server.url);
    await new Promise((resolve) => setTimeout(resolve, 200));
    edit('guide/install.md', (text) => `${text}\n## Feathered serpents\n\nThe quetzalcoatl step comes last.\n`);
    await events.next('reload');
    // The reload goes out first; the index follows a moment later.
    await expect.poll(() => search('quetzalcoatl'), { timeout: 5000 }).toEqual(['/guide/install#feathered-serpents']);
    events.close();
  });

  it('passes by a partial saved while serving: no page, no rebuild, no error', async () => {
    const events = openEvents(server.url);
    await new Promise((resolve) => setTimeout(resolve, 200));
    writeFileSync(join(site, 'content/guide/_snippet.md'), '# Snippet\n\nSNIPPET-TEXT with [a broken link](/nowhere).\n');
    await new Promise((resolve) => setTimeout(resolve, 500));
    edit('guide/install.md', (text) => `${text}\nWritten after the partial.\n`);
    const reload = await events.next('reload');
    expect(reload.data.routes).toEqual(['/guide/install']);
    expect(await page('/guide/install')).toContain('Written after the partial.');
    expect((await rawRequest(server.url, '/guide/_snippet')).status).toBe(404);
    expect(server.output()).not.toMatch(/nowhere|SNIPPET-TEXT/);
    events.close();
  });

  it('re-renders every page of a sidebar when a label in it changes', async () => {
    const events = openEvents(server.url);
    await new Promise((resolve) => setTimeout(resolve, 200));
    edit('guide/faq.md', (text) => text.replace(/^sidebar_label: .*$/m, 'sidebar_label: Questions'));
    const reload = await events.next('reload');
    expect(reload.data.routes).toEqual(expect.arrayContaining(['/guide/faq', '/guide/install', '/guide/zebra']));
    expect(await page('/guide/zebra')).toContain('>Questions</a>');
    events.close();
  });

  it("re-renders a page whose pagination_next names a page of another sidebar when that page's label changes", async () => {
    edit('guide/zebra.md', (text) => text.replace(/^---\n/, '---\npagination_next: home/index\n'));
    await expect.poll(async () => page('/guide/zebra'), { timeout: 15_000 }).toMatch(/class="pagination-link pagination-next" href="\/"[^>]*>.*?Welcome</);
    edit('home/index.md', (text) => text.replace('title: Welcome', 'title: Welcome aboard'));
    await expect.poll(async () => page('/guide/zebra'), { timeout: 15_000 }).toMatch(/class="pagination-link pagination-next" href="\/"[^>]*>.*?Welcome aboard</);
  });

  it("re-renders the pages whose Previous or Next link shows a page's pagination_label once it is saved", async () => {
    const events = openEvents(server.url);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The label is in no sidebar: only the links that lead to the page show it.
    edit('guide/faq.md', (text) => text.replace(/\n---\n/, '\npagination_label: Common questions\n---\n'));
    const reload = await events.next('reload');
    expect(reload.data.routes).toEqual(expect.arrayContaining(['/guide/faq', '/guide/install']));
    expect(await page('/guide/install')).toMatch(/class="pagination-link pagination-next" href="\/guide\/faq"[^>]*>.*?Common questions</);
    events.close();
  });

  it('checks links after a save: a broken one fails the update, a lost anchor warns on the page linking to it', async () => {
    const events = openEvents(server.url);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const zebra = join(site, 'content', 'guide', 'zebra.md');
    const faq = join(site, 'content', 'guide', 'faq.md');
    const zebraText = readFileSync(zebra, 'utf8');
    const faqText = readFileSync(faq, 'utf8');
    writeFileSync(zebra, `${zebraText}\nSee [the old page](/guide/nowhere).\n`);
    expect((await events.next('build-error')).data.errors!.join('\n')).toMatch(/content\/guide\/zebra\.md:\d+:\d+: broken link → \/guide\/nowhere/);
    // The page links to a heading of zebra.md that zebra.md then loses.
    writeFileSync(zebra, `${zebraText}\n## Stripes\n\nBlack and white.\n`);
    await events.next('reload');
    writeFileSync(faq, `${faqText}\nSee [the stripes](/guide/zebra#stripes).\n`);
    await events.next('reload');
    expect(server.output()).not.toContain('has no heading with the id "stripes"');
    writeFileSync(zebra, zebraText);
    await events.next('reload');
    expect(server.output()).toMatch(/warning content\/guide\/faq\.md:\d+:\d+: link → \/guide\/zebra#stripes: \/guide\/zebra has no heading with the id "stripes"/);
    writeFileSync(faq, faqText);
    await events.next('reload');
    events.close();
  });

  it('shows a broken file in the overlay, keeps serving the last good page, and clears once fixed', async () => {
    const events = openEvents(server.url);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const good = await page('/guide/faq');
    const file = join(site, 'content', 'guide', 'faq.md');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace(/^title: .*$/m, 'title: [unclosed'));
    const failure = await events.next('build-error');
    expect(failure.data.errors!.join('\n')).toMatch(/^content\/guide\/faq\.md:3:\d+: frontmatter is not valid YAML/m);
    expect(await page('/guide/faq')).toBe(good);
    // A page opened now learns of the error at once.
    const late = openEvents(server.url);
    expect((await late.next('build-error')).data.errors!.join('\n')).toContain('content/guide/faq.md');
    writeFileSync(file, original);
    const fixed = await events.next('reload').catch((error: Error) => {
      throw new Error(`${error.message}\n${server.output()}`);
    });
    expect(fixed.data.routes).toContain('/guide/faq');
    events.close();
    late.close();
  });

  it('clears the error when the fix puts the site back as the last good build left it (a category file undone)', async () => {
    const events = openEvents(server.url);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const file = join(site, 'content', 'guide', 'advanced', '_category_.json');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, '{ "label": "Advanced topics", ');
    expect((await events.next('build-error')).data.errors!.join('\n')).toContain('content/guide/advanced/_category_.json');
    writeFileSync(file, original);
    await events.next('ok');
    // A page opened now shows no error, and the terminal says it is fixed.
    const late = openEvents(server.url);
    await expect(late.next('build-error', 1500)).rejects.toThrow();
    expect(server.output()).toMatch(/Fixed: the site is as the last good build left it\n/);
    events.close();
    late.close();
  });

  it('refuses a page saved in another encoding as docs build does, naming its line, and keeps the last good page', async () => {
    const events = openEvents(server.url);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const good = await page('/guide/faq');
    const file = join(site, 'content', 'guide', 'faq.md');
    const original = readFileSync(file);
    // "café" in Windows-1252: one byte, 0xE9, that is no UTF-8.
    writeFileSync(file, Buffer.concat([original, Buffer.from('\nThe caf'), Buffer.from([0xe9]), Buffer.from(' opens at nine.\n')]));
    const failure = await events.next('build-error');
    const line = original.toString('utf8').split('\n').length + 1;
    expect(failure.data.errors!.join('\n')).toMatch(new RegExp(`^content/guide/faq\\.md:${line}:8: is not valid UTF-8`, 'm'));
    expect(await page('/guide/faq')).toBe(good);
    writeFileSync(file, original);
    expect((await events.next('reload')).data.routes).toContain('/guide/faq');
    events.close();
  });

  it('answers every request while a heavy page renders, on a save and on a new page', async () => {
    // Some seconds of rendering (a timing list of a 24-hour race): it ran on the server's own thread,
    // and every request waited for it (30 s for a page of 40,000 items before lists were made linear).
    // 20,000 laps: some seconds of rendering here, long against a request's few milliseconds.
    const laps = Array.from({ length: 20_000 }, (_, i) => `- Lap ${i + 1}: the beacon passed the finish line`).join('\n');
    const install = join(site, 'content', 'guide', 'install.md');
    const before = readFileSync(install, 'utf8');
    const added = join(site, 'content', 'guide', 'laps.md');
    const cases: [what: string, change: () => void, done: RegExp][] = [
      ['a page saved', () => writeFileSync(install, `${before}\n${laps}\n`), /Updated \/guide\/install in (\d+) ms/],
      ['a page added', () => writeFileSync(added, `---\ntitle: Laps\n---\n\n${laps}\n`), /Built \d+ pages in ([\d.]+) s/],
    ];
    for (const [what, change, done] of cases) {
      const finished = server.waitFor(done, 90_000);
      change();
      // A reader asks for another page every 200 ms until the update is done.
      const waits: number[] = [];
      let asking = true;
      void finished.then(() => (asking = false), () => (asking = false));
      while (asking) {
        const sent = performance.now();
        const response = await rawRequest(server.url, '/guide/faq');
        waits.push(performance.now() - sent);
        expect(response.status).toBe(200);
        expect(response.body.toString('utf8')).toContain('Frequently asked questions');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const line = await finished;
      const took = Number(done.exec(line)![1]) * (line.endsWith(' s') ? 1000 : 1);
      // Rendering on the server's thread, one request waited for (nearly) the whole update.
      expect(Math.max(...waits), `${what}: the longest wait against the update's ${took} ms`).toBeLessThan(took / 3);
    }
    expect(await page('/guide/laps')).toContain('Lap 20000: the beacon passed the finish line');
    const restored = server.waitFor(/Built \d+ pages in/, 90_000);
    writeFileSync(install, before);
    rmSync(added);
    await restored;
  });

  it('answers POST /api/login with each development account, and the pages call it', async () => {
    const login = async (body: object): Promise<{ status: number; json: { need_otp?: boolean; data?: { user: { roles: string[] } } } }> => {
      const response = await rawRequest(server.url, '/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, json: JSON.parse(response.body.toString('utf8')) as never };
    };
    expect(await login({ email: 'member@quad.example', password: DEV_PASSWORD })).toMatchObject({ status: 200, json: { data: { user: { roles: ['quad_member'] } } } });
    expect(await login({ email: 'admin@quad.example', password: DEV_PASSWORD })).toMatchObject({ status: 401, json: { need_otp: true } });
    expect(await login({ email: 'admin@quad.example', password: DEV_PASSWORD, otp_attempt: '123456' })).toMatchObject({ status: 200, json: { data: { user: { roles: ['admin'] } } } });
    expect(await login({ email: 'alumnus@quad.example', password: DEV_PASSWORD })).toMatchObject({ status: 200, json: { data: { user: { roles: ['alumnus'] } } } });
    expect((await login({ email: 'member@quad.example', password: 'wrong' })).status).toBe(401);
    // The pages name the server as `/`, the origin they come from: its port is in no page.
    expect(await page('/guide')).toContain('"backendUrl":"/"');
    expect(await page('/guide')).not.toContain(server.url);
  });

  it('serves like a good static host', async () => {
    expect(await rawRequest(server.url, '/guide/install.html')).toMatchObject({ status: 301, headers: { location: '/guide/install' } });
    expect(await rawRequest(server.url, '/guide/install/index.html')).toMatchObject({ status: 301, headers: { location: '/guide/install' } });
    expect((await rawRequest(server.url, '/index.html')).headers.location).toBe('/');
    // A path whose dot segments leave `//host` never redirects to another site (`Location: //evil.example`).
    for (const path of ['/a/..//evil.example.html', '/.//evil.example/index.html', '/a/..///evil.example.htm']) {
      expect((await rawRequest(server.url, path)).headers.location, path).toBe('/evil.example');
    }
    expect((await rawRequest(server.url, '/guide/install/')).status).toBe(200);
    const missing = await rawRequest(server.url, '/guide/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.body.toString()).toContain('Page not found');
    const html = (await rawRequest(server.url, '/guide')).body.toString();
    const js = /src="(\/assets\/app\.[^"]+\.js)"/.exec(html)![1]!;
    const css = /href="(\/assets\/app\.[^"]+\.css)"/.exec(html)![1]!;
    expect((await rawRequest(server.url, js)).headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await rawRequest(server.url, css)).headers['content-type']).toBe('text/css; charset=utf-8');
    expect((await rawRequest(server.url, '/manifest.json')).headers['content-type']).toBe('application/json; charset=utf-8');
    expect((await rawRequest(server.url, '/favicon.svg')).headers['content-type']).toBe('image/svg+xml');
    const first = await rawRequest(server.url, js, { headers: { 'accept-encoding': 'gzip' } });
    expect(first.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(first.body).length).toBeGreaterThan(first.body.length);
    expect((await rawRequest(server.url, js, { headers: { 'if-none-match': first.headers.etag! } })).status).toBe(304);
    // Files named by their content's hash are kept for good; the search index's entry, which names the
    // others and changes under one name at every rebuild, is checked again every time.
    expect((await rawRequest(server.url, js)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await rawRequest(server.url, '/assets/search/index.json')).headers['cache-control']).toBe('no-cache');
    // A static site takes no POST, PUT or DELETE: a 200 would tell a script it worked.
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const refused = await rawRequest(server.url, '/guide', method === 'DELETE' ? { method } : { method, body: 'x=1' });
      expect(refused.status, method).toBe(405);
      expect(refused.headers.allow).toBe('GET, HEAD');
    }
    // The page's own policy, as a header too.
    const policy = (await rawRequest(server.url, '/guide')).headers['content-security-policy'];
    expect(policy).toMatch(/^default-src 'self'; script-src 'self' 'sha256-[A-Za-z0-9+/]+=*';/);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${policy}"`);
  });

  it('refuses paths that leave the site, encoded or not', async () => {
    const config = readFileSync(join(site, 'site.config.ts'), 'utf8');
    for (const path of ['/../site.config.ts', '/..%2fsite.config.ts', '/%2e%2e%2fsite.config.ts', '/assets/..%2f..%2fsite.config.ts', '/%2e%2e/%2e%2e/etc/passwd', '/..%5csite.config.ts', '/a%00b']) {
      const response = await rawRequest(server.url, path);
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(response.body.toString(), path).not.toContain(config.slice(0, 40));
      expect(response.body.toString(), path).not.toContain('root:');
    }
  });

  it("answers only this machine's names: a page of another site rebound to 127.0.0.1 gets nothing (DNS rebinding)", async () => {
    const { port } = new URL(server.url);
    for (const host of [`attacker.example:${port}`, 'attacker.example', `127.0.0.1.nip.io:${port}`]) {
      for (const path of ['/guide', '/manifest.json', '/assets/search/index.json', '/__docs/events']) {
        const response = await rawRequest(server.url, path, { headers: { host } });
        expect(response.status, `${host} ${path}`).toBe(403);
        expect(response.body.toString(), `${host} ${path}`).toMatch(/^Forbidden: this server answers requests for localhost, 127\.0\.0\.1 and \[::1\], not for "[^"]+"/);
      }
      const login = await rawRequest(server.url, '/api/login', { method: 'POST', headers: { host, origin: `http://${host}`, 'content-type': 'application/json' }, body: JSON.stringify({ email: 'member@quad.example', password: 'docs-dev' }) });
      expect(login.status, host).toBe(403);
    }
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `docs.localhost:${port}`, `LOCALHOST:${port}`]) {
      expect((await rawRequest(server.url, '/guide', { headers: { host } })).status, host).toBe(200);
    }
  });
});

describe('docs serve --dist and shutdown', () => {
  it('serves a finished build as it is, and stops cleanly on Ctrl-C', async () => {
    const site = copyFixture('basic');
    expect(runDocs(['build'], { cwd: site }).code).toBe(0);
    const server = await startServe(site, ['--dist', 'dist']);
    const html = (await rawRequest(server.url, '/guide/install')).body.toString();
    expect(html).toContain('Install the backend');
    expect(html).not.toContain('/__docs/live.js');
    expect((await rawRequest(server.url, '/__docs/events')).status).toBe(404);
    expect(await server.stop()).toBe(0);
    expect(server.output()).toContain('Stopping docs serve');
  });

  it('stops cleanly on Ctrl-C while the config is still loading', async () => {
    const site = copyFixture('basic');
    const config = join(site, 'site.config.ts');
    // The config says when its import has begun (a file), then takes a while.
    writeFileSync(config, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(join(site, 'loading'))}, '');\nawait new Promise((resolve) => setTimeout(resolve, 10_000));\n${readFileSync(config, 'utf8')}`);
    const child = spawn(process.execPath, [join(REPO, 'bin', 'docs.mjs'), 'serve', '--port', '0'], { cwd: site });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    for (let waited = 0; !existsSync(join(site, 'loading')); waited += 50) {
      if (waited > 20_000) throw new Error(`the config never started loading; docs serve printed:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGINT');
    // It was "internal error: it calls process.exit(0) … a bug in docs", then a config that "never finishes loading" (exit 2).
    expect(await exited, output).toBe(0);
    expect(output).toBe('Stopping docs serve…\n');
  });

  it('started again on another port, keeps every page the last run built', async () => {
    const site = copyFixture('basic');
    const page = join(site, 'node_modules', '.cache', 'docs', 'serve', 'guide', 'install', 'index.html');
    const first = await startServe(site);
    const before = statSync(page).ino;
    expect(await first.stop()).toBe(0);
    const second = await startServe(site);
    expect(second.url).not.toBe(first.url);
    expect(statSync(page).ino).toBe(before);
    expect((await rawRequest(second.url, '/guide/install')).status).toBe(200);
    expect(await second.stop()).toBe(0);
  });

  it('applies a save made while the watcher still reads the tree, after the first build was done', async () => {
    const site = copyFixture('basic');
    // The watcher starts 2.5 s late, as on a large site where reading the tree outlasts a warm build.
    const server = await startServe(site, [], { DOCS_TEST_WATCH_DELAY_MS: '2500' });
    const file = join(site, 'content', 'guide', 'faq.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^title: .*$/m, 'title: Saved while starting'));
    await server.waitFor(/Updated \/guide\/faq in \d+ ms/, 15_000);
    expect((await rawRequest(server.url, '/guide/faq')).body.toString()).toContain('Saved while starting');
    expect(await server.stop()).toBe(0);
  });

  it('rebuilds when a file an OpenAPI $ref names is saved, wherever it is in the site', async () => {
    const site = copyFixture('openapi');
    const spec = join(site, 'specs/api.yaml');
    writeFileSync(spec, readFileSync(spec, 'utf8').replace("$ref: '#/components/schemas/Team'", "$ref: '../shared/team-summary.yaml'"));
    mkdirSync(join(site, 'shared'));
    const schema = join(site, 'shared/team-summary.yaml');
    writeFileSync(schema, 'type: object\nproperties:\n  name:\n    type: string\n    description: Shown on the scoreboard.\n');
    const server = await startServe(site);
    const operation = async (): Promise<string> => (await rawRequest(server.url, '/guide/api/get-team')).body.toString();
    expect(await operation()).toContain('Shown on the scoreboard.');
    const events = openEvents(server.url);
    await new Promise((resolve) => setTimeout(resolve, 200));
    writeFileSync(schema, readFileSync(schema, 'utf8').replace('Shown on the scoreboard.', 'Shown on the lap counter.'));
    await events.next('reload');
    expect(await operation()).toContain('Shown on the lap counter.');
    events.close();
    expect(await server.stop()).toBe(0);
  });

  it('watches a spec and a content folder the config names only once it is saved while serving', async () => {
    const site = copyFixture('openapi');
    const config = join(site, 'site.config.ts');
    const original = readFileSync(config, 'utf8');
    // Served first without the API reference, its spec in a folder no one watches yet.
    renameSync(join(site, 'specs'), join(site, 'reference'));
    writeFileSync(config, original.replace(/  openapi: \[[^\n]*\],\n/, ''));
    const server = await startServe(site);
    const events = openEvents(server.url);
    await new Promise((resolve) => setTimeout(resolve, 200));
    writeFileSync(config, original.replace("'specs/api.yaml'", "'reference/api.yaml'"));
    await events.next('reload');
    const operation = async (): Promise<string> => (await rawRequest(server.url, '/guide/api/get-team')).body.toString();
    expect(await operation()).toContain('<h1');
    // An edit of the spec now shows.
    const spec = join(site, 'reference', 'api.yaml');
    const text = readFileSync(spec, 'utf8');
    const summary = /summary: (.+)/.exec(text)![1]!;
    writeFileSync(spec, text.replace(`summary: ${summary}`, 'summary: Fetch one racing team'));
    await events.next('reload');
    await expect.poll(operation, { timeout: 10_000 }).toContain('Fetch one racing team');
    // The content moves to docs/: edits there show, the old folder is no source any more.
    cpSync(join(site, 'content'), join(site, 'docs'), { recursive: true });
    writeFileSync(config, readFileSync(config, 'utf8').replace('export default fixtureConfig({', "export default fixtureConfig({\n  contentDir: 'docs',"));
    await events.next('reload');
    writeFileSync(join(site, 'docs', 'guide', 'index.md'), `${readFileSync(join(site, 'docs', 'guide', 'index.md'), 'utf8')}\nA sentence written in the new content folder.\n`);
    // guide/index.md is the homepage.
    await expect.poll(async () => (await rawRequest(server.url, '/')).body.toString(), { timeout: 10_000 }).toContain('A sentence written in the new content folder.');
    writeFileSync(join(site, 'content', 'guide', 'index.md'), `${readFileSync(join(site, 'content', 'guide', 'index.md'), 'utf8')}\nA sentence in the folder that is no longer the content.\n`);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await rawRequest(server.url, '/')).body.toString()).not.toContain('no longer the content');
    events.close();
    expect(await server.stop()).toBe(0);
  });

  it('watches the content folder again when it comes back after being moved away', async () => {
    const site = copyFixture('basic');
    const server = await startServe(site);
    try {
      const before = server.output().length;
      renameSync(join(site, 'content'), join(site, 'content-away'));
      await server.waitFor(/content/, 15_000, before);
      renameSync(join(site, 'content-away'), join(site, 'content'));
      // Back: built in full, then a save is seen as before (it was not, until the config was saved).
      await server.waitFor(/Built \d+ pages/, 30_000, before);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const file = join(site, 'content/guide/install.md');
      writeFileSync(file, `${readFileSync(file, 'utf8')}\nSaved after the folder came back.\n`);
      await waitForText(server, '/guide/install', 'Saved after the folder came back.');
    } finally {
      await server.stop();
    }
  });

  it('applies a save made when the content folder came back, before it is watched again', async () => {
    const site = copyFixture('basic');
    // Every watcher starts 2 s late, as one reading a large folder: the folder's return is built in
    // full at once, and a save right after that build is seen by no watcher yet.
    const server = await startServe(site, [], { DOCS_TEST_WATCH_DELAY_MS: '2000' });
    try {
      // The first watcher is there once a save reaches the site.
      const faq = join(site, 'content/guide/faq.md');
      writeFileSync(faq, `${readFileSync(faq, 'utf8')}\nSaved once the server watched.\n`);
      await server.waitFor(/Updated \/guide\/faq/, 15_000);
      const before = server.output().length;
      renameSync(join(site, 'content'), join(site, 'content-away'));
      await server.waitFor(/content/, 15_000, before);
      // A folder no watcher has seen yet comes back with it (a branch that adds runbooks).
      mkdirSync(join(site, 'content-away/guide/runbooks'));
      writeFileSync(join(site, 'content-away/guide/runbooks/restart.md'), '# Restarting the timing server\n\nStop the reader service first.\n');
      renameSync(join(site, 'content-away'), join(site, 'content'));
      await server.waitFor(/Built \d+ pages/, 30_000, before);
      expect((await rawRequest(server.url, '/guide/runbooks/restart')).status).toBe(200);
      const file = join(site, 'content/guide/runbooks/restart.md');
      writeFileSync(file, `${readFileSync(file, 'utf8')}\nSaved before the folder was watched again.\n`);
      // Applied on its own or with a full build the folder's return set off: what counts is the page served.
      await waitForText(server, '/guide/runbooks/restart', 'Saved before the folder was watched again.');
    } finally {
      await server.stop();
    }
  });

  it.each([
    ['--backend', ['--backend', 'https://api.staging.quad.example'], {}],
    ['DOCS_BACKEND_URL (DESIGN §1: at build and serve time)', [], { DOCS_BACKEND_URL: 'https://api.staging.quad.example' }],
  ])('sends logins to the backend given with %s', async (_, args, env) => {
    const site = copyFixture('basic');
    const server = await startServe(site, args, env);
    expect((await rawRequest(server.url, '/guide')).body.toString()).toContain('"backendUrl":"https://api.staging.quad.example"');
    expect(server.output()).not.toContain('Development accounts');
    expect((await rawRequest(server.url, '/api/login', { method: 'POST', body: '{}' })).status).toBe(404);
    expect(await server.stop()).toBe(0);
  });

  it('names DOCS_BACKEND_URL when it is no web address, and takes --backend over it', async () => {
    const site = copyFixture('basic');
    const refused = runDocs(['serve', '--port', '0'], { cwd: site, env: { DOCS_BACKEND_URL: 'api.quad.example' }, timeout: 60_000 });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('DOCS_BACKEND_URL "api.quad.example" is not the address of a backend');
    const server = await startServe(site, ['--backend', 'https://api.quad.example'], { DOCS_BACKEND_URL: 'https://api.staging.quad.example' });
    expect((await rawRequest(server.url, '/guide')).body.toString()).toContain('"backendUrl":"https://api.quad.example"');
    expect(await server.stop()).toBe(0);
  });
});

describe('docs serve when its cache is cleared or its config fails later', () => {
  it('builds the whole site again after node_modules/.cache was cleared, and goes on building', async () => {
    const site = copyFixture('basic');
    const server = await startServe(site);
    try {
      rmSync(join(site, 'node_modules', '.cache'), { recursive: true, force: true });
      const before = server.output().length;
      const faq = join(site, 'content', 'guide', 'faq.md');
      writeFileSync(faq, `${readFileSync(faq, 'utf8')}\nSaved after the cache was cleared.\n`);
      await server.waitFor(/Built \d+ pages/, 30_000, before);
      for (const path of ['/', '/guide/faq', '/guide/install']) expect((await rawRequest(server.url, path)).status, path).toBe(200);
      expect((await rawRequest(server.url, '/guide/faq')).body.toString()).toContain('Saved after the cache was cleared.');
      // A page added then is built too: the folder is the server's own, whatever its marker says.
      const next = server.output().length;
      writeFileSync(join(site, 'content', 'guide', 'later.md'), '# Later\n\nAdded after the cache was cleared.\n');
      await server.waitFor(/Built \d+ pages/, 30_000, next);
      expect((await rawRequest(server.url, '/guide/later')).status).toBe(200);
      expect(server.output()).not.toContain('pass --force');
    } finally {
      await server.stop();
    }
  });

  it('shows a failure of a timer the saved config started, and keeps serving', async () => {
    const site = copyFixture('basic');
    const server = await startServe(site);
    try {
      const events = openEvents(server.url);
      await new Promise((resolve) => setTimeout(resolve, 200));
      writeFileSync(join(site, 'site.config.ts'), "import { fixtureConfig } from '../_shared/config';\n\nsetTimeout(() => {\n  throw new Error('late boom');\n}, 1500);\nexport default fixtureConfig({ tagline: 'The second tagline' });\n");
      const failure = await events.next('build-error', 30_000);
      expect(failure.data.errors!.join('\n')).toContain('late boom');
      expect((await rawRequest(server.url, '/guide/faq')).status).toBe(200);
      events.close();
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe('docs serve in a git repository', () => {
  it('shows the date and author of a commit made while serving on the pages it touched, and only there', async () => {
    const site = copyFixture('basic');
    const git = (args: string[], env: Record<string, string> = {}): string => execFileSync('git', args, { cwd: site, env: { ...process.env, ...env }, encoding: 'utf8' });
    const commit = (message: string, who: string, date: string): string =>
      git(['-c', `user.name=${who}`, '-c', `user.email=${who.toLowerCase()}@quad.example`, 'commit', '-q', '--allow-empty', '-m', message], { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
    writeFileSync(join(site, '.gitignore'), 'node_modules/\ndist/\n');
    git(['init', '-q']);
    git(['add', '-A']);
    commit('First', 'Ada', '2026-01-05T10:00:00Z');
    const server = await startServe(site);
    try {
      /** The page's "Last updated on DATE by AUTHOR", its markup left out. */
      const lastUpdated = async (path: string): Promise<string> => (/Last updated on .*?<\/b>/.exec((await rawRequest(server.url, path)).body.toString())?.[0] ?? '').replace(/<[^>]+>/g, '');
      expect(await lastUpdated('/guide/faq')).toBe('Last updated on 5 January 2026 by Ada');
      const events = openEvents(server.url);
      await new Promise((resolve) => setTimeout(resolve, 200));
      // A page saved, then committed: the save shows at once, the commit's date and author once it is made.
      const faq = join(site, 'content', 'guide', 'faq.md');
      writeFileSync(faq, `${readFileSync(faq, 'utf8')}\nA sentence for the second commit.\n`);
      expect((await events.next('reload')).data.routes).toEqual(['/guide/faq']);
      const before = server.output().length;
      git(['add', '-A']);
      commit('Second', 'Grace', '2026-02-07T10:00:00Z');
      // No file the watcher sees changed: the new commit alone re-renders the page it touched.
      expect((await events.next('reload', 15_000)).data.routes).toEqual(['/guide/faq']);
      expect(await lastUpdated('/guide/faq')).toBe('Last updated on 7 February 2026 by Grace');
      expect(await lastUpdated('/guide/install')).toBe('Last updated on 5 January 2026 by Ada');
      // A commit that touches no page re-renders none, and nothing is built in full.
      commit('Nothing', 'Hedy', '2026-03-09T10:00:00Z');
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(server.output().slice(before)).not.toMatch(/Built \d+ pages|Updated \/guide\/install/);
      expect(await lastUpdated('/guide/install')).toBe('Last updated on 5 January 2026 by Ada');
      events.close();
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe('docs serve behind the gate: the live-reload stream', () => {
  /** Opens the event stream with `cookie`; `ended` resolves once the server ends it. */
  async function stream(url: string, cookie?: string): Promise<{ status: number; ended: Promise<void> }> {
    const response = await fetch(`${url}/__docs/events`, { headers: cookie ? { cookie } : {} });
    const ended = (async () => {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) void chunk;
    })().catch(() => undefined);
    return { status: response.status, ended };
  }
  const within = <T,>(promise: Promise<T>, ms: number): Promise<T | 'open'> => Promise.race([promise, new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), ms))]);

  it("ends a reader's streams when they log out, and every stream without a session when the gate turns on", async () => {
    const site = copyFixture('basic');
    const server = await startServe(site);
    try {
      // No gate yet: anyone's stream is open.
      const anyone = await stream(server.url);
      expect(anyone.status).toBe(200);
      const config = join(site, 'site.config.ts');
      writeFileSync(config, "import { fixtureConfig } from '../_shared/config';\n\nexport default fixtureConfig({ gate: true });\n");
      expect(await within(anyone.ended, 30_000)).toBeUndefined();
      const login = await fetch(`${server.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'member@quad.example', password: 'docs-dev' }) });
      const cookie = login.headers.getSetCookie().find((line) => line.startsWith('docs_session='))!.split(';')[0]!;
      const reader = await stream(server.url, cookie);
      expect(reader.status).toBe(200);
      expect(await within(reader.ended, 500)).toBe('open');
      expect((await fetch(`${server.url}/logout`, { method: 'POST', headers: { cookie } })).status).toBe(204);
      expect(await within(reader.ended, 5_000)).toBeUndefined();
      expect((await stream(server.url, cookie)).status).toBe(401);
    } finally {
      await server.stop();
    }
  });
});

describe('docs serve in a folder that is no site', () => {
  it('exits 2 naming the missing config, as docs build does, and makes nothing in the folder', () => {
    const empty = mkdtempSync(join(tmpdir(), 'docs-no-site-'));
    const run = runDocs(['serve', '--port', '0', '--root', empty], { timeout: 30_000 });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`${join(empty, 'site.config.ts')}: no site config found`);
    // It made node_modules/.cache/docs/serve-secret there (with --root /, a /node_modules).
    expect(readdirSync(empty)).toEqual([]);
  });

  it('says why it cannot start: a port in use, a host that is not this machine, a --dist that is no build; never a stack trace', async () => {
    const site = copyFixture('basic');
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = String((blocker.address() as AddressInfo).port);
    const cases: [string[], RegExp][] = [
      [['--root', site, '--port', port], new RegExp(`error docs serve: cannot listen on 127\\.0\\.0\\.1:${port}: port ${port} is in use[^\\n]*\\n  fix: stop the other server, or pass another port: --port ${Number(port) + 1}`)],
      [['--root', site, '--port', '0', '--host', 'no-such-host.invalid'], /cannot listen on no-such-host\.invalid:0: no-such-host\.invalid is no host name this machine knows/],
      [['--port', '0', '--dist', join(site, 'no-such-folder')], /--dist .*no-such-folder: there is no such folder/],
      [['--port', '0', '--dist', join(site, 'site.config.ts')], /--dist .*site\.config\.ts: it is a file, not a folder/],
      [['--port', '0', '--dist', join(site, 'content')], /--dist .*content: it holds no built site \(no index\.html or 404\.html\)/],
    ];
    for (const [args, message] of cases) {
      const run = runDocs(['serve', ...args], { timeout: 30_000 });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).toContain('docs serve did not start: 1 error.');
      expect(run.stderr).not.toMatch(/internal error|\n\s+at |Build failed/);
    }
    await new Promise<void>((resolve) => blocker.close(() => resolve()));
  });
});

describe('docs serve over many rebuilds', () => {
  it('lets the highlighter of each full build and each save go: shiki never counts ten alive', async () => {
    const site = copyFixture('basic');
    const server = await startServe(site);
    try {
      const page = join(site, 'content', 'guide', 'scratch.md');
      // Each page added or removed is a full build (its routes change); each edit of it a save.
      for (let round = 0; round < 8; round++) {
        writeFileSync(page, `# Scratch ${round}\n\n\`\`\`ts\nconst round = ${round};\n\`\`\`\n`);
        await server.waitFor(/Built \d+ pages/, 60_000);
        writeFileSync(page, `# Scratch ${round}\n\nEdited.\n\n\`\`\`bash\necho ${round}\n\`\`\`\n`);
        await server.waitFor(/Updated|Built \d+ pages/, 60_000);
        rmSync(page);
        await server.waitFor(/Built \d+ pages/, 60_000);
      }
      expect(server.output()).not.toContain('[Shiki]');
    } finally {
      await server.stop();
    }
  }, 240_000);
});
