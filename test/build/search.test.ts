/**
 * The search index of the portal (issue 16): built with the pages, covering every page and API
 * operation, queried here with the browser's own engine over the files the build wrote.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Manifest } from '../../runtime/manifest';
import { SearchEngine, excerpt, oneEdit, type SearchResult } from '../../runtime/search/engine';
import { LEAD, type SearchChunk, type SearchMeta, type SearchShard } from '../../runtime/search/format';
import { fold, queryPath, terms } from '../../runtime/search/text';
import { searchIndexFiles, searchIndexFilesInSlices } from '../../cli/build/search/index';
import { copyFixture, runDocs } from '../support/site';

let dist: string;
let manifest: Manifest;
let engine: SearchEngine;
/** Every file the engine asked for, in order. */
let requested: string[];

function engineOver(folder: string): SearchEngine {
  return new SearchEngine(async (url) => {
    requested.push(url);
    return JSON.parse(readFileSync(join(folder, url), 'utf8')) as unknown;
  });
}

beforeAll(() => {
  dist = join(mkdtempSync(join(tmpdir(), 'docs-search-')), 'dist');
  const run = runDocs(['build', '--out', dist]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  manifest = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8')) as Manifest;
  requested = [];
  engine = engineOver(dist);
});

/** The first result's URL for a query. */
async function first(query: string): Promise<string | undefined> {
  return (await engine.search(query))[0]?.url;
}

describe('the search index', () => {
  it('covers every page of the site, each under its title and section', () => {
    const meta = JSON.parse(readFileSync(join(dist, 'assets/search/index.json'), 'utf8')) as SearchMeta;
    const pages = new Map<string, { title: string; section: string }>();
    for (const file of meta.chunks) {
      const chunk = JSON.parse(readFileSync(join(dist, 'assets/search', file), 'utf8')) as SearchChunk;
      for (const page of Object.values(chunk.pages)) pages.set(page.route, page);
    }
    expect([...pages.keys()].sort()).toEqual(manifest.routes.map((route) => route.path).sort());
    for (const route of manifest.routes) expect(pages.get(route.path)?.title, route.path).toBe(route.title);
    expect(pages.get('/backend/onboarding/git')?.section).toBe('Backend › Onboarding');
    expect(pages.get('/internal-wiki/secretaris')?.section).toBe('Internal wiki');
  });

  it('finds every API operation first by its operationId, and by method and path', async () => {
    const operations = manifest.routes.filter((route) => /\/api\//.test(route.path) && readFileSync(join(dist, route.path.slice(1), 'index.html'), 'utf8').includes('data-operation="'));
    expect(operations.length).toBeGreaterThanOrEqual(15);
    for (const route of operations) {
      const html = readFileSync(join(dist, route.path.slice(1), 'index.html'), 'utf8');
      const [, method, path, operationId] = /data-method="(\w+)" data-path="([^"]+)" data-operation="([^"]+)"/.exec(html)!;
      expect(await first(operationId!), operationId).toBe(route.path);
      // Its method and path, exactly: this operation, not one on a longer path with the same words
      // (`GET /teams` found `GET /teams/{teamId}`, "Get one team", first).
      expect(await first(`${method!.toUpperCase()} ${path}`), `${method} ${path}`).toBe(route.path);
      // Pasted from a log or a request: with its parameters' values, or a query string.
      const pasted = `${method!.toUpperCase()} ${path!.replace(/\{[^}]+\}/g, '42')}?page=2`;
      expect(await first(pasted), pasted).toBe(route.path);
      // Its path alone: the operations on that very path first (`/api/auth`: DELETE and POST, then the
      // three on `/api/auth/password`).
      const onPath = operations.filter((other) => readFileSync(join(dist, other.path.slice(1), 'index.html'), 'utf8').includes(`data-path="${path}"`)).map((other) => other.path);
      const byPath = [...new Set((await engine.search(path!)).map((result) => result.url.split('#')[0]!))];
      expect(byPath.slice(0, onPath.length).sort(), path).toEqual(onPath.sort());
    }
  });

  it('answers a question typed as a sentence with the pages it asks about', async () => {
    const routes = async (query: string, count: number): Promise<string[]> => (await engine.search(query)).slice(0, count).map((result) => result.url.split('#')[0]!);
    expect(await routes('how do I deploy the backend', 3)).toContain('/backend/backend/deployment');
    expect(await routes('how do I log in', 2)).toEqual(expect.arrayContaining(['/backend/api/user-authentication/user-login', '/backend/backend/authentication']));
    expect((await routes('how to install nixos on a nuc', 1))[0]).toBe('/24urenloop/deployment/nixos/install/nuc');
    expect(await routes('where are secrets stored', 3)).toContain('/frontend/secrets');
    expect((await routes('waar vind ik de jaarrekening', 1))[0]).toBe('/internal-wiki/formaliteiten');
    // A word typed whole is no prefix: `do` marks neither `down` nor `documentation`, nor `log` `logo`.
    const marked = (await engine.search('how do I deploy the backend', 50)).flatMap((result) => [...result.marked.title, ...(result.excerpt ?? [])].filter((part) => part.mark).map((part) => fold(part.text)));
    expect(marked.filter((word) => /^do./.test(word) && !/^do(es|ing|ne)?$/.test(word))).toEqual([]);
    // A question alone is still searched: its words are all it has.
    expect((await engine.search('how ')).length).toBeGreaterThan(0);
  });

  it('finds a version or an address as written, not its numbers apart', async () => {
    const html = (url: string): string => readFileSync(join(dist, url.split('#')[0]!.slice(1), 'index.html'), 'utf8');
    for (const version of ['4.2.0', '1.8.2', '2.0.0', '10.24.0.101']) {
      const results = await engine.search(version, 50);
      expect(results.length, version).toBeGreaterThan(0);
      // Every result writes it (no address table for 4.2.0, no 2024 for 2.0.0, no port 8222 for 1.8.2)…
      for (const result of results) expect(html(result.url).includes(version), `${version} → ${result.url}`).toBe(true);
      // …and shows it marked whole.
      for (const result of results.filter((result) => result.excerpt?.some((part) => part.text.includes(version)))) {
        expect(result.excerpt!.filter((part) => part.mark).map((part) => part.text), result.url).toContain(version);
      }
    }
    // Written in a tag or after a name too, and typed either way; not inside a longer address, nor as a price.
    const small = searchIndexFiles([
      { route: '/tag', title: 'Tags', section: 'S', blocks: [{ text: 'Release v4.2.0 is tagged in Forgejo, and release-4.2.1 after it.' }] },
      { route: '/plain', title: 'Header', section: 'S', blocks: [{ text: 'The app sends ANDROID/4.2.0 (412) with every request.' }] },
      { route: '/price', title: 'Parts', section: 'S', blocks: [{ text: 'A USB-C connector costs 4.20 EUR, a cable 2.0 EUR.' }] },
      { route: '/addresses', title: 'Addresses', section: 'S', blocks: [{ text: 'The Pi answers on 10.4.2.0 and 4.2.0.1 is the router.' }] },
    ]);
    const reader = new SearchEngine(async (url) => JSON.parse(small[url.slice(1)]!) as unknown);
    const found = async (query: string): Promise<string[]> => (await reader.search(query, 50)).map((result) => result.url);
    expect((await found('4.2.0 ')).sort()).toEqual(['/plain', '/tag']);
    expect((await found('v4.2.0 '))[0]).toBe('/tag');
    expect((await found('v4.2.0 ')).sort()).toEqual(['/plain', '/tag']);
    // Being typed, it may still become a longer one.
    expect((await found('4.2.0')).sort()).toEqual(['/addresses', '/plain', '/tag']);
    expect(await found('4.2.1 ')).toEqual(['/tag']);
    expect((await reader.search('v4.2.0'))[0]!.excerpt!.filter((part) => part.mark).map((part) => part.text)).toEqual(['v4.2.0']);
    // Every page whose text gives 4.2.0 is found, and a number being typed finds the versions it starts.
    expect(new Set((await engine.search('4.2.0', 50)).map((result) => result.url.split('#')[0]))).toEqual(new Set(['/frontend/onboarding/stack/mobile', '/frontend/onboarding', '/backend/api/quad-header', '/frontend/releasing/apple']));
    expect((await engine.search('4.2.', 50)).flatMap((result) => (result.excerpt ?? []).filter((part) => part.mark).map((part) => part.text))).toEqual(expect.arrayContaining(['4.2.0', '4.2.1']));
  });

  it('answers the ways staff search: a path, an operationId, a Dutch inflection, no accents, a typo', async () => {
    expect(await first('/api/login')).toBe('/backend/api/user-authentication/user-login');
    expect(await first('POST /api/login')).toBe('/backend/api/user-authentication/user-login');
    expect(await first('userLogin')).toBe('/backend/api/user-authentication/user-login');
    // Plural for a singular heading: `jaarrekeningen` → stem `jaarrekening`.
    expect(await first('jaarrekeningen')).toBe('/internal-wiki/formaliteiten#boekhouding-en-jaarrekening');
    // `geïnstalleerd` typed without its diaeresis.
    expect(await first('geinstalleerd')).toBe('/internal-wiki/geschiedenis#het-begin-een-hobbyproject');
    // One letter wrong, one missing, two swapped.
    expect(await first('passbolr')).toBe('/infrastructure/cloud/passbolt');
    expect(await first('kwiting')).toBe('/internal-wiki/secretaris#de-algemene-vergadering');
    expect(await first('pasbolt')).toBe('/infrastructure/cloud/passbolt');
    // English stems, and a word being typed.
    expect((await engine.search('rotating keys')).map((result) => result.url)).toContain('/frontend/secrets#rotation');
    expect((await engine.search('passb')).map((result) => result.url)).toContain('/infrastructure/cloud/passbolt');
  });

  it('puts the page a query names first, and finds identifiers and words run together whole', async () => {
    // The page whose title is the query, before the sections of others that mention it.
    expect(await first('Secrets')).toBe('/frontend/secrets');
    expect(await first('nixos')).toBe('/24urenloop/deployment/nixos/why-nixos');
    expect(await first('kubernetes')).toBe('/24urenloop/deployment/kubernetes/overview');
    // An identifier typed whole: the page that has it, before pages with its parts apart.
    expect(await first('X-Quad-Version')).toBe('/backend/api/quad-header');
    const identifier = (await engine.search('QUAD_API_URL')).slice(0, 2).map((result) => result.url.split('#')[0]!);
    for (const route of identifier) expect(readFileSync(join(dist, route.slice(1), 'index.html'), 'utf8'), route).toMatch(/<code>QUAD_API_URL<\/code>/);
    // A title's words run together (`Deep linking` ↔ the route's `deeplinking`), whole or being typed.
    expect(await first('deeplinking')).toBe('/frontend/deeplinking');
    expect(await first('deeplink')).toBe('/frontend/deeplinking');
    // A hyphen left out: `e-mail` is found as `email`, `node.js` as `nodejs`.
    expect((await engine.search('email')).slice(0, 3).map((result) => result.url)).toContain('/backend/api/user-authentication/send-password-reset-email');
    expect((await first('nodejs'))?.split('#')[0]).toBe('/24urenloop/development/installation-guides/pnpm');
  });

  it('finds what the pages write as one word when it is typed as two, whole or being typed', async () => {
    // The navbar's "24 urenloop"; the pages write "24urenloop".
    for (const query of ['24 urenloop', '24 uren']) {
      const results = await engine.search(query);
      expect(results.length, query).toBe(8);
      expect(results[0]!.url, query).toMatch(/^\/24urenloop(\/|$)/);
      expect(results[0]!.marked.title.filter((part) => part.mark).map((part) => part.text), query).toEqual(['24urenloop']);
    }
    // A page of the section is named by it; without the pair only a page with both words apart was found.
    expect((await engine.search('24 urenloop')).filter((result) => result.url.startsWith('/24urenloop')).length).toBeGreaterThanOrEqual(3);
    // The section's name without its number: the pages that write `24urenloop`, not only a page with `urenloop` alone.
    const byLetters = await engine.search('urenloop');
    expect(byLetters.filter((result) => /24urenloop/i.test(result.page.title + (result.heading ?? ''))).length).toBeGreaterThanOrEqual(3);
    expect(byLetters.find((result) => /^24urenloop/i.test(result.page.title))!.marked.title.filter((part) => part.mark).map((part) => part.text)).toEqual(['24urenloop']);
    // And the other way round still: typed as one where a title has two.
    expect(await first('deep linking')).toBe('/frontend/deeplinking');
  });

  it('marks a word the text writes in parts when the query matched it whole, and only then', async () => {
    const marks = (parts: { text: string; mark: boolean }[] | undefined): string[] => (parts ?? []).filter((part) => part.mark).map((part) => part.text);
    const [deepLinking] = await engine.search('deeplinking');
    expect(marks(deepLinking!.marked.title)).toEqual(['Deep linking']);
    expect(marks(deepLinking!.excerpt)).toContain('deep link');
    const [nodeJs] = await engine.search('nodejs');
    expect(marks(nodeJs!.marked.title)).toEqual(['Node.js']);
    // A part that matches alone is marked alone.
    const [deep] = await engine.search('deep');
    expect(marks(deep!.marked.title)).toEqual(['Deep']);
    // Parts run together match only as a word the query found in the index, not as the start of one
    // being typed: "a pinned" is no "api…".
    const typing = (word: string, inParts?: boolean): boolean => word === 'api' || (!inParts && word.startsWith('api'));
    expect(marks(excerpt('Keep a pinned copy of the API key', typing))).toEqual(['API']);
    expect(marks(excerpt('Set QUAD_API_URL first', (word) => word === 'quadapiurl'))).toEqual(['QUAD_API_URL']);
  });

  it('keeps a page\'s two results together within each list of eight, so More results moves no row', async () => {
    for (const query of ['deploy', 'kubernetes', 'passbolt', 'quad', 'how do I deploy the backend']) {
      const results = await engine.search(query, 24);
      const routes = results.map((result) => result.url.split('#')[0]!);
      for (let from = 0; from < routes.length; from += 8) {
        const list = routes.slice(from, from + 8);
        // A page twice in a list: its two rows are next to each other.
        for (const route of new Set(list)) {
          const at = list.flatMap((other, i) => (other === route ? [i] : []));
          if (at.length === 2) expect(at[1]! - at[0]!, `${query}: ${route} in ${JSON.stringify(list)}`).toBe(1);
        }
      }
      // The first lists are those a shorter search gives: More results only adds.
      expect(routes.slice(0, 8), query).toEqual((await engine.search(query, 8)).map((result) => result.url.split('#')[0]!));
      expect(routes.slice(0, 16), query).toEqual((await engine.search(query, 16)).map((result) => result.url.split('#')[0]!));
    }
    // "Deployment overview" and its section were rows 2 and 8 of `deploy`.
    const deploy = (await engine.search('deploy')).map((result) => result.url.split('#')[0]!);
    expect(deploy.filter((route, i) => route === deploy[i + 1]).length).toBeGreaterThan(0);
  });

  it('cuts the excerpt where most of the query\'s words are, not around the first word that matched', async () => {
    // Both pages that write QUAD_API_URL show it, not `example.quad.app.dev` two lines before it.
    for (const result of (await engine.search('QUAD_API_URL')).slice(0, 2)) expect(result.excerpt!.map((part) => part.text).join(''), result.url).toContain('QUAD_API_URL');
    const text = `The application id is example.quad.app.dev, with an orange icon. ${'Then the emulator starts. '.repeat(6)}Set QUAD_API_URL to the backend.`;
    const shown = excerpt(text, (word) => ['quad', 'api', 'url'].includes(word));
    expect(shown.map((part) => part.text).join('')).toMatch(/^….* QUAD_API_URL to the backend\.$/);
    // Two words of a query far apart: the excerpt starts shortly before the first when that shows both.
    const far = `${'Lead words here. '.repeat(4)}Keep secrets in Passbolt, the shared vault of the whole organisation, and when someone leaves, rotate what they could see.`;
    expect(excerpt(far, (word) => word === 'passbolt' || word === 'rotate').filter((part) => part.mark).map((part) => part.text)).toEqual(['Passbolt', 'rotate']);
    // A title is never cut.
    expect(excerpt(`Getting started with ${'very '.repeat(60)}Passbolt`, (word) => word === 'passbolt', Infinity)[0]!.text).toMatch(/^Getting started/);
  });

  it('shows the heading, the section and an excerpt with the match marked', async () => {
    const [result] = await engine.search('kwijting');
    expect(result!.page.title).toBe('Secretaris');
    expect(result!.heading).toBe('De algemene vergadering');
    expect(result!.excerpt!.filter((part) => part.mark).map((part) => part.text)).toEqual(['kwijting']);
    expect(result!.excerpt!.map((part) => part.text).join('')).toMatch(/verleent kwijting aan de bestuurders/);
  });

  it('leaves code blocks out and forgives no typo on short words', async () => {
    // "truncates" is only in a code block of the seeds page (a shell comment); its prose is indexed.
    const seedPage = readFileSync(join(dist, 'backend/backend/seeds/index.html'), 'utf8');
    expect(seedPage).toContain('truncates all tables');
    expect((await engine.search('truncates')).map((result) => result.url.split('#')[0])).not.toContain('/backend/backend/seeds');
    expect((await engine.search('idempotent natural keys')).map((result) => result.url.split('#')[0])).toContain('/backend/backend/seeds');
    expect(await engine.search('kye')).toEqual([]);
    // A word the index leaves out finds nothing typed whole; being typed, it may start a word (`the` → `theme`).
    expect(await engine.search('de een ')).toEqual([]);
    expect((await engine.search('the')).length).toBeGreaterThan(0);
    expect(await engine.search('')).toEqual([]);
  });

  it('finds the singular a page writes from an -ies plural (batteries: battery), and marks it', async () => {
    for (const [plural, singular] of [['batteries', 'battery'], ['repositories', 'repository'], ['queries', 'query'], ['policies', 'policy']]) {
      const pages = async (query: string): Promise<Set<string>> => new Set((await engine.search(query, 500)).map((result) => result.url.split('#')[0]!));
      const bySingular = await pages(`${singular} `);
      const byPlural = await pages(`${plural} `);
      expect(bySingular.size, singular).toBeGreaterThan(0);
      // Every page the singular finds, the plural finds too.
      expect([...bySingular].filter((route) => !byPlural.has(route)), plural).toEqual([]);
    }
    // The singular is marked where a result writes it.
    const marked = (await engine.search('batteries ', 500)).flatMap((result) => [...result.marked.title, ...(result.excerpt ?? [])].filter((part) => part.mark).map((part) => fold(part.text)));
    expect(marked).toContain('battery');
  });

  it('finds a common word being typed as the start of longer words, not in titles where it comes before another word, and marks no common word', async () => {
    for (const query of ['the', 'of', 'een']) {
      const results = await engine.search(query);
      expect(results.length, query).toBeGreaterThan(0);
      for (const result of results) {
        const parts = [...result.marked.title, ...(result.marked.heading ?? []), ...(result.excerpt ?? [])];
        const marked = parts.filter((part) => part.mark).map((part) => fold(part.text));
        const where = `"${query}" → ${result.url} (${result.page.title}) marks ${JSON.stringify(marked)}`;
        // Each result shows the longer word it was found by (`theme`, `office`, `eenmalig`), marked…
        expect(marked.some((word) => word.startsWith(query) && word.length > query.length), where).toBe(true);
        // …and never the common word itself ("PATCH Change the password…" found by `thepassword`).
        expect(marked, where).not.toContain(query);
      }
    }
    expect(terms('Change the password of the user', { pairs: true })).not.toContain('thepassword');
  });

  it('downloads only the entry point, the shards of the query words and the chunks of the results', async () => {
    requested = [];
    const fresh = engineOver(dist);
    await fresh.search('kwijting');
    const all = readdirSync(join(dist, 'assets/search'));
    expect(requested[0]).toBe('/assets/search/index.json');
    expect(requested.filter((url) => url.includes('/t-')).length).toBe(1);
    expect(requested.length).toBeLessThan(6);
    expect(all.length).toBeGreaterThan(30);
    requested = [];
    await fresh.search('kwijting');
    expect(requested).toEqual([]);
  });

  it('shows the first results from the shards alone, before any chunk is in, and their excerpts once the chunks are', async () => {
    const summary = (result: SearchResult): string => `${result.url} ${result.page.title} | ${result.page.section} › ${result.heading ?? ''}${result.page.method ? ` ${result.page.method}` : ''}`;
    let held: SearchEngine | undefined;
    for (const query of ['passbolt', 'kwijting', 'rotation', 'userLogin', 'deploy', 'how do I deploy the backend', 'passbolt rotation']) {
      // A fresh reader whose chunks answer only when the test lets them.
      let release = (): void => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      held = new SearchEngine(async (url) => {
        const data = JSON.parse(readFileSync(join(dist, url), 'utf8')) as unknown;
        if (url.includes('/d-')) await gate;
        return data;
      });
      const partials: SearchResult[][] = [];
      const searching = held.search(query, 8, (shown) => partials.push(shown));
      await expect.poll(() => partials.length).toBe(1);
      const [partial] = partials as [SearchResult[]];
      expect(partial.every((result) => result.excerpt === undefined), query).toBe(true);
      release();
      const results = await searching;
      expect(results.map(summary), query).toEqual((await engine.search(query)).map(summary));
      // One word: the whole first page of results comes from the shard; the list then only gains excerpts.
      if (!query.includes(' ')) expect(partial.length, query).toBe(results.length);
      expect(partial.length, query).toBeGreaterThan(0);
      expect(results.slice(0, partial.length).map(summary), query).toEqual(partial.map(summary));
      expect(results.every((result) => result.excerpt !== undefined && result.excerpt.length > 0), query).toBe(true);
    }
    // Once every chunk is in, a query has nothing to wait for: no partial list.
    const again: SearchResult[][] = [];
    await held!.search('passbolt rotation', 8, (shown) => again.push(shown));
    expect(again).toEqual([]);
  });

  it('says in each shard where its terms\' heaviest documents are, as the chunks do', () => {
    const folder = join(dist, 'assets/search');
    const meta = JSON.parse(readFileSync(join(folder, 'index.json'), 'utf8')) as SearchMeta;
    const chunks = meta.chunks.map((file) => JSON.parse(readFileSync(join(folder, file), 'utf8')) as SearchChunk);
    let placed = 0;
    for (const file of Object.values(meta.shards)) {
      const shard = JSON.parse(readFileSync(join(folder, file), 'utf8')) as SearchShard;
      const docs = shard.docs ?? [];
      const shardPages = shard.pages ?? [];
      const places = new Set<number>();
      for (let at = 0; at < docs.length; at += 4) {
        const [doc, pageNumber, anchor, heading] = docs.slice(at, at + 4) as [number, number, string, string];
        if (at > 0) expect(doc).toBeGreaterThan(docs[at - 4] as number);
        const chunk = chunks[Math.floor(doc / meta.chunkSize)]!;
        expect([pageNumber, anchor, heading]).toEqual(chunk.docs[doc % meta.chunkSize]!.slice(0, 3));
        const pageAt = shardPages.findIndex((value, index) => index % 5 === 0 && value === pageNumber);
        const [, route, title, section, method] = shardPages.slice(pageAt, pageAt + 5) as [number, string, string, number, string];
        // The chunk's page is the shard's, and an operation's path (which only chunks carry).
        const { path, ...shown } = chunk.pages[pageNumber]!;
        expect({ route, title, section: meta.sections[section], ...(method ? { method } : {}) }).toEqual(shown);
        expect(path === undefined).toBe(!method);
        if (path) expect(path).toMatch(/^\//);
        places.add(doc);
        placed++;
      }
      for (let at = 5; at < shardPages.length; at += 5) expect(shardPages[at]).toBeGreaterThan(shardPages[at - 5] as number);
      // Every term's heaviest documents are there.
      for (const list of Object.values(shard.terms)) {
        let doc = 0;
        const postings: [number, number][] = [];
        for (let i = 0; i < list.length; i += 2) postings.push([(doc += list[i]!), list[i + 1]!]);
        postings.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
        for (const [heavy] of postings.slice(0, LEAD)) expect(places.has(heavy)).toBe(true);
      }
    }
    expect(placed).toBeGreaterThan(1000);
  });

  it('asks for three result chunks at first and for the others once the first is in, not for all at once', async () => {
    // Each chunk answers only when the test lets it: what was asked for before the first answer shows.
    const asked: string[] = [];
    const answers: (() => void)[] = [];
    const held = new SearchEngine(async (url) => {
      const data = JSON.parse(readFileSync(join(dist, url), 'utf8')) as unknown;
      if (url.includes('/d-')) {
        asked.push(url);
        await new Promise<void>((resolve) => answers.push(resolve));
      }
      return data;
    });
    const searching = held.search('deploy', 8, () => undefined);
    await expect.poll(() => asked.length).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(asked.length).toBe(3);
    answers[0]!();
    // The rest go out together as soon as the first result's chunk is in.
    await expect.poll(() => asked.length).toBeGreaterThan(3);
    const rest = asked.length;
    for (let i = 0; i < 50 && (await Promise.race([searching.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 5))])) === false; i++) answers.forEach((answer) => answer());
    expect(new Set(asked).size).toBe(asked.length);
    expect((await searching).map((result) => result.url)).toEqual((await engine.search('deploy')).map((result) => result.url));
    expect(rest).toBe(asked.length);
  });

  it('prepares the query code on an index in memory, fetching nothing', async () => {
    requested = [];
    await SearchEngine.prepare();
    expect(requested).toEqual([]);
  });
});

describe('the text of the index', () => {
  it('folds case and diacritics, keeps identifiers whole and in parts, joins what is joined, and drops stopwords', () => {
    expect(fold('Één Café Überlingen')).toBe('een cafe uberlingen');
    expect(terms('Het bestuur en de AV')).toEqual(['bestuur', 'av']);
    // An operation's path is a term whole as well.
    expect(terms('POST /api/login userLogin', { identifiers: true })).toEqual(['post', 'api', 'login', 'userlogin', 'user', '/api/login']);
    expect(terms('GET /teams/{teamId}/ listTeams', { identifiers: true })).toContain('/teams/{teamid}');
    // A query is a path with an HTTP method before it or nothing; another word before it is a word.
    expect([queryPath('/teams/'), queryPath('GET /teams'), queryPath(' delete /api/auth '), queryPath('deploy /teams'), queryPath('/teams laps')]).toEqual(['/teams', '/teams', '/api/auth', undefined, undefined]);
    // Words joined by `_`, `-` or `.` are a term whole too; numbers only joined by dots, and with them.
    expect(terms('Set QUAD_API_URL, read the e-mail (node.js 4.0.0, 2024-04-23)')).toEqual(['set', 'quad', 'api', 'url', 'read', 'mail', 'node', 'js', '4', '0', '0', '2024', '04', '23', 'quadapiurl', 'email', 'nodejs', '4.0.0']);
    // A title or heading also gives each two adjacent words run together.
    expect(terms('Deep linking', { pairs: true })).toEqual(['deep', 'linking', 'deeplinking']);
    expect(terms('Log in to Quad', { pairs: true })).toEqual(['log', 'quad', 'login']);
  });

  it('counts one edit: a letter replaced, inserted, removed, or two swapped', () => {
    expect(oneEdit('passbolt', 'passbolr')).toBe(true);
    expect(oneEdit('passbolt', 'pasbolt')).toBe(true);
    expect(oneEdit('passbolt', 'passbollt')).toBe(true);
    expect(oneEdit('passbolt', 'psasbolt')).toBe(true);
    expect(oneEdit('passbolt', 'pasbolr')).toBe(false);
    expect(oneEdit('passbolt', 'passbolt')).toBe(false);
  });
});

describe('the index of a small site', () => {
  it('is rebuilt from the pages the build keeps, so a no-change build keeps the same files', () => {
    const root = copyFixture('basic');
    const out = join(root, 'dist');
    expect(runDocs(['build'], { cwd: root }).code).toBe(0);
    const before = readdirSync(join(out, 'assets/search')).sort();
    expect(runDocs(['build'], { cwd: root }).code).toBe(0);
    expect(readdirSync(join(out, 'assets/search')).sort()).toEqual(before);
    const page = readdirSync(join(root, 'content'), { recursive: true }).map(String).find((file) => file.endsWith('.md'))!;
    writeFileSync(join(root, 'content', page), `${readFileSync(join(root, 'content', page), 'utf8')}\n\nThe zyzzyva is a weevil.\n`);
    expect(runDocs(['build'], { cwd: root }).code).toBe(0);
    const after = readdirSync(join(out, 'assets/search'));
    expect(after.sort()).not.toEqual(before);
    expect(existsSync(join(out, 'assets/search/index.json'))).toBe(true);
    requested = [];
    return engineOver(out)
      .search('zyzzyva')
      .then((results) => expect(results.length).toBe(1));
  });
});

describe('a reader whose page outlives a rebuild (a deploy, a save in docs serve)', () => {
  it('revalidates the entry point, and runs a query again on the new index when the old one\'s files are gone', async () => {
    const root = copyFixture('basic');
    const out = join(root, 'dist');
    expect(runDocs(['build'], { cwd: root }).code).toBe(0);
    const asked: string[] = [];
    const reader = new SearchEngine(async (url, fresh) => {
      asked.push(`${url}${fresh ? ' (fresh)' : ''}`);
      const path = join(out, url);
      if (!existsSync(path)) throw Object.assign(new Error('the index answered 404'), { status: 404 });
      return JSON.parse(readFileSync(path, 'utf8')) as unknown;
    });
    expect((await reader.search('ruby')).length).toBeGreaterThan(0);
    // The entry point keeps its name from build to build: it is never taken from the browser's cache.
    expect(asked[0]).toBe('/assets/search/index.json (fresh)');
    expect(asked.slice(1).every((url) => !url.endsWith('(fresh)'))).toBe(true);
    const faq = join(root, 'content/guide/faq.md');
    writeFileSync(faq, `${readFileSync(faq, 'utf8')}\n\nThe installatron sets everything up.\n`);
    expect(runDocs(['build'], { cwd: root }).code).toBe(0);
    // The shard the tab's entry point names for `installatron` was replaced: the query runs on the new index.
    const found = await reader.search('installatron');
    expect(found[0]?.url).toBe('/guide/faq#why-ruby');
    expect(asked.filter((url) => url.endsWith('(fresh)')).length).toBe(2);
  });

  it('asks for the entry point again when the dialog opens over a minute after it was loaded, and lets the old files go', async () => {
    const root = copyFixture('basic');
    const out = join(root, 'dist');
    expect(runDocs(['build'], { cwd: root }).code).toBe(0);
    const reader = new SearchEngine(async (url) => JSON.parse(readFileSync(join(out, url), 'utf8')) as unknown);
    let now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => now);
    try {
      expect((await reader.search('ruby')).length).toBeGreaterThan(0);
      // Its shard is in memory now; the rebuild gives the word a page its old shard does not know.
      const faq = join(root, 'content/guide/faq.md');
      writeFileSync(faq, `${readFileSync(faq, 'utf8')}\n\nRubyist or not, start here.\n`);
      expect(runDocs(['build'], { cwd: root }).code).toBe(0);
      await reader.load();
      expect((await reader.search('rubyist')).length).toBe(0);
      now += 61_000;
      await reader.load();
      expect((await reader.search('rubyist')).map((result) => result.url)).toEqual(['/guide/faq#why-ruby']);
    } finally {
      clock.mockRestore();
    }
  });
});

describe('the index of a rebuild', () => {
  it('is the index a build from nothing makes, byte for byte, when it comes from the counts and chunks the store kept', () => {
    const root = copyFixture('basic');
    const out = join(root, 'dist');
    expect(runDocs(['build'], { cwd: root }).code).toBe(0);
    const pages = readdirSync(join(root, 'content'), { recursive: true }).map(String).filter((file) => file.endsWith('.md')).sort();
    expect(pages.length).toBeGreaterThan(2);
    // One page gains a paragraph, another a section (a block more), a third its title.
    const edit = (page: string, change: (text: string) => string) => writeFileSync(join(root, 'content', page), change(readFileSync(join(root, 'content', page), 'utf8')));
    edit(pages[0]!, (text) => `${text}\n\nThe zyzzyva is a weevil.\n`);
    edit(pages[1]!, (text) => `${text}\n\n## Weevils\n\nA second zyzzyva lives here.\n`);
    edit(pages[2]!, (text) => text.replace(/^title: .*$/m, 'title: Renamed for the index'));
    expect(runDocs(['build'], { cwd: root }).code).toBe(0);
    const clean = join(root, 'clean');
    expect(runDocs(['build', '--no-cache', '--out', clean], { cwd: root }).code).toBe(0);
    const files = (dir: string) => Object.fromEntries(readdirSync(join(dir, 'assets/search')).sort().map((file) => [file, readFileSync(join(dir, 'assets/search', file), 'utf8')]));
    expect(files(out)).toEqual(files(clean));
    expect(files(out)['index.json']).toContain('d-');
    requested = [];
    return engineOver(out)
      .search('zyzzyva')
      .then((results) => expect(results.length).toBe(2));
  });

  it("keeps every chunk and shard a section added to one page does not touch: the other pages' documents keep their numbers", () => {
    const root = copyFixture('basic');
    const out = join(root, 'dist');
    // Forty pages of the race's timing stations, three sections each: some 120 documents, in four chunks and more.
    const parts = ['antenna', 'battery', 'counter', 'dashboard', 'export', 'firmware', 'gateway', 'heartbeat', 'inbox', 'jitter'];
    for (let i = 0; i < 40; i++) {
      const [a, b, c] = [parts[i % 10]!, parts[(i + 3) % 10]!, parts[(i + 7) % 10]!];
      const text = [`---\ntitle: Station ${i}\n---\n`, `Station ${i} counts the laps of the runners passing its ${a}, and reports them to the backend.`];
      for (const [n, word] of [a, b, c].entries()) text.push(`## ${word[0]!.toUpperCase()}${word.slice(1)} ${n + 1}\n\nWhen the ${word} of station ${i} fails, the relay takes over its laps until a volunteer has replaced the ${word}; check the ${word} log first.`);
      writeFileSync(join(root, 'content/guide', `station-${i}.md`), `${text.join('\n\n')}\n`);
    }
    expect(runDocs(['build'], { cwd: root }).code).toBe(0);
    const before = indexFiles(out);
    const chunks = (files: Record<string, string>) => Object.keys(files).filter((file) => file.startsWith('d-'));
    expect(chunks(before).length).toBeGreaterThan(4);
    // A section about quokkas added to the twentieth page: one document more, within the numbers the page has.
    const page = join(root, 'content/guide/station-20.md');
    const original = readFileSync(page, 'utf8');
    // (As long as the site's other sections on average, so that the weights' average length stays.)
    writeFileSync(page, `${original}\n## Quokka quorum\n\nQuokkas queue quietly at station twenty when the quorum of volunteers is there; a quokka that jumps the queue waits for the next quorum of quiet volunteers.\n`);
    expect(runDocs(['build'], { cwd: root }).code).toBe(0);
    const after = indexFiles(out);
    expect(after).toEqual(cleanIndex(root));
    const added = (now: Record<string, string>, was: Record<string, string>) => Object.keys(now).filter((file) => file !== 'index.json' && !(file in was));
    // The page's own chunk is new; every other chunk is the one the browsers have.
    expect(added(after, before).filter((file) => file.startsWith('d-'))).toHaveLength(1);
    expect(chunks(after).length).toBe(chunks(before).length);
    // The shards that are new are those of the section's words (quokkas, station, twenty, volunteers,
    // jumps, waits, next…), not the other shards of the site's.
    const shards = added(after, before).filter((file) => file.startsWith('t-'));
    expect(shards.length).toBeGreaterThan(0);
    expect(shards.filter((file) => !/^t-[qstvjwn]/.test(file))).toEqual([]);
    expect(Object.keys(after).filter((file) => file.startsWith('t-')).length).toBeGreaterThan(2 * shards.length);
    // And the section removed again: the index is the first one, file for file.
    writeFileSync(page, original);
    expect(runDocs(['build'], { cwd: root }).code).toBe(0);
    expect(indexFiles(out)).toEqual(before);
  });

  /** The output's index files and their text, by name. */
  const indexFiles = (dir: string): Record<string, string> => Object.fromEntries(readdirSync(join(dir, 'assets/search')).sort().map((file) => [file, readFileSync(join(dir, 'assets/search', file), 'utf8')]));
  /** A build of the basic fixture, and a change to it: the site's folder, its output, and a page's path. */
  const rebuilt = (): { root: string; out: string; faq: string } => {
    const root = copyFixture('basic');
    expect(runDocs(['build'], { cwd: root }).code).toBe(0);
    const faq = join(root, 'content/guide/faq.md');
    writeFileSync(faq, `${readFileSync(faq, 'utf8')}\n\nThe zyzzyva is a weevil.\n`);
    return { root, out: join(root, 'dist'), faq };
  };
  /** The index a build from nothing makes of the site as it is now. */
  const cleanIndex = (root: string): Record<string, string> => {
    const clean = join(root, 'clean');
    expect(runDocs(['build', '--no-cache', '--out', clean], { cwd: root }).code).toBe(0);
    return indexFiles(clean);
  };
  // The main thread making a rebuild's index fails the build when the tests ask (DOCS_TEST_INDEX_ELSEWHERE).
  const elsewhere = { env: { DOCS_TEST_INDEX_ELSEWHERE: '1' } };

  it('is made on the warm render thread while the main thread finds what else changed, the same index as from nothing', () => {
    const { root, out } = rebuilt();
    const run = runDocs(['build'], { cwd: root, ...elsewhere });
    // One core starts no warm thread: the main thread makes the index there.
    if (availableParallelism() === 1) return expect(run.stderr).toContain('the main thread made the index of a rebuild');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(indexFiles(out)).toEqual(cleanIndex(root));
  });

  it("is made on the warm render thread when a page is added beside the edit: the other pages keep their markdown keys, and the index is the one from nothing", () => {
    const { root, out } = rebuilt();
    // A new page changes the route map, which no other page's markdown key holds (its links asked nothing of the new page).
    writeFileSync(join(root, 'content/guide/weevils.md'), '---\ntitle: Weevils\n---\n\nEvery zyzzyva is a weevil, not every weevil a zyzzyva.\n');
    const run = runDocs(['build'], { cwd: root, ...elsewhere });
    if (availableParallelism() === 1) return expect(run.stderr).toContain('the main thread made the index of a rebuild');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(indexFiles(out)).toEqual(cleanIndex(root));
  });

  it('is made by the main thread when an index file the thread would keep was edited in the output, which is then written again', () => {
    const tamper = (out: string): void => {
      for (const file of readdirSync(join(out, 'assets/search'))) if (file !== 'index.json') writeFileSync(join(out, 'assets/search', file), `${readFileSync(join(out, 'assets/search', file), 'utf8')} `);
    };
    const { root, out } = rebuilt();
    tamper(out);
    expect(runDocs(['build'], { cwd: root, ...elsewhere }).stderr).toContain('the main thread made the index of a rebuild');
    const other = rebuilt();
    tamper(other.out);
    expect(runDocs(['build'], { cwd: other.root }).code).toBe(0);
    expect(indexFiles(other.out)).toEqual(cleanIndex(other.root));
  });
});

describe('the index of a large site', () => {
  // 600 pages say "alpha", some many times (heavy postings), most once; only pages 7 and 450 also say
  // "beta", and there "alpha" weighs little: their postings are in alpha's tail, not in its shard.
  const pages = Array.from({ length: 600 }, (_, i) => ({
    route: `/p/${i}`,
    title: `Page ${i}`,
    section: 'Big',
    blocks: [{ text: `${i % 3 === 0 ? 'alpha '.repeat(1 + (i % 7)) : 'alpha'} filler words for page number ${i}. ${i === 7 || i === 450 ? 'beta '.repeat(30) : ''}${'lorem ipsum dolor '.repeat(i === 7 || i === 450 ? 30 : 3)}` }],
  }));
  const files = searchIndexFiles(pages);
  const large = new SearchEngine(async (url) => JSON.parse(files[url.slice(1)]!) as unknown);

  it('keeps the heaviest postings of a common term in its shard and the rest in a tail', () => {
    const shardFile = Object.keys(files).find((file) => /\/t-a[^/]*\.json$/.test(file))!;
    const shard = JSON.parse(files[shardFile]!) as { terms: Record<string, number[]>; tails: Record<string, [string, number]> };
    expect(shard.terms.alpha!.length / 2).toBe(256);
    expect(shard.tails.alpha![1]).toBe(600);
    expect(files[`assets/search/${shard.tails.alpha![0]}`]).toBeDefined();
    // Documents are the pages here (one block each, with room for a second: page n's is document
    // 2n): those of pages 7 and 450 are not among the heaviest.
    const docs: number[] = [];
    for (let i = 0, doc = 0; i < shard.terms.alpha!.length; i += 2) docs.push((doc += shard.terms.alpha![i]!));
    expect(docs.every((doc) => doc % 2 === 0)).toBe(true);
    expect(docs).not.toContain(14);
    expect(docs).not.toContain(900);
  });

  it('answers one word from the shard alone, with the heaviest documents first', async () => {
    requested = [];
    const results = await large.search('alpha', 3);
    // i % 3 === 0 and i % 7 === 6 repeat alpha seven times: pages 6, 27, 48, …
    expect(results.map((result) => result.url)).toEqual(['/p/6', '/p/27', '/p/48']);
  });

  it('is made the same in slices (docs serve), and a slice run gives up once superseded', async () => {
    expect(await searchIndexFilesInSlices(pages, () => false)).toEqual(files);
    // Slices of 0 ms: a pause after every step, and the question asked after each.
    let pauses = 0;
    expect(await searchIndexFilesInSlices(pages, () => ++pauses > 3, 0)).toBeUndefined();
    expect(pauses).toBe(4);
  });

  it("finds words that name an object's own properties (constructor, toString) in a shard with tails", async () => {
    // Common words beside them, so that their shards have tails (a plain object: `tails.constructor` was Object).
    const common = pages.map((page) => ({ ...page, blocks: [{ text: `${page.blocks[0]!.text} coffee constant tomato today valley vanilla` }] }));
    const named = [...common, { route: '/ctor', title: 'The constructor page', section: 'Big', blocks: [{ text: 'How the constructor of a class works: the constructor runs first, then toString and valueOf.' }] }];
    const withTails = searchIndexFiles(named);
    const reader = new SearchEngine(async (url) => JSON.parse(withTails[url.slice(1)]!) as unknown);
    for (const word of ['constructor', 'tostring', 'valueof']) expect((await reader.search(word))[0]?.url, word).toBe('/ctor');
  });

  it('fetches the tails when the heaviest postings hold too few documents with every word', async () => {
    const results = await large.search('alpha beta');
    // The two with both words first; pages with alpha alone fill the list after them.
    expect(results.slice(0, 2).map((result) => result.url).sort()).toEqual(['/p/450', '/p/7']);
    expect(results.length).toBe(8);
  });
});
