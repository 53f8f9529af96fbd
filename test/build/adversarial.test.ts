/**
 * `docs build` against hostile and unusual input (issue 13): it never destroys or escapes, never
 * crashes (exit 70) or hangs, is right by default on what writers really produce, and raises no false
 * alarm. Every refusal asserts the exit code, the message and an untouched output and sources.
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createStaticHandler } from '../../cli/serve/static-files';
import { copyFixture, readRoute, REPO, runDocs, snapshotTree, type CliRun } from '../support/site';

let built: string;
beforeAll(() => {
  built = copyFixture('basic');
  const first = runDocs(['build', '--root', built]);
  expect(first.code, first.stderr).toBe(0);
});

/** A fresh copy of the built basic site (sources, dist/ and cache), with snapshots to compare against. */
function site(): { root: string; dist: string; sources: Map<string, string>; output: Map<string, string> } {
  const parent = mkdtempSync(join(tmpdir(), 'docs-adv-'));
  cpSync(join(built, '..', '_shared'), join(parent, '_shared'), { recursive: true });
  const root = join(parent, 'site');
  cpSync(built, root, { recursive: true, verbatimSymlinks: true });
  const dist = join(root, 'dist');
  return { root, dist, sources: snapshotTree(join(root, 'content')), output: snapshotTree(dist) };
}

/** Asserts a refused build: its exit code, that it printed `says`, and no stack trace (exit 70). */
function expectRefused(run: CliRun, code: number, ...says: (string | RegExp)[]): void {
  expect(run.code, run.stderr).toBe(code);
  for (const text of says) expect(run.stderr).toMatch(typeof text === 'string' ? new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : text);
  expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
}

describe('docs build never destroys or escapes', () => {
  it('refuses the site root, the content folder, a folder above the site, the filesystem root, the home folder and a repository as output', () => {
    const { root, dist, sources, output } = site();
    const home = mkdtempSync(join(tmpdir(), 'docs-home-'));
    writeFileSync(join(home, 'thesis.tex'), 'years of work');
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['--out', '.'], {}, /cannot be the output folder: it is the site root/],
      [['--out', 'content'], {}, /cannot be the output folder: it holds the site's sources/],
      [['--out', '..'], {}, /cannot be the output folder: it holds the site/],
      [['--out', '/'], {}, /cannot be the output folder: it is the root of the filesystem/],
      [['--out', home], { HOME: home }, /cannot be the output folder: it is your home folder/],
      [['--out', dirname(home)], { HOME: home }, /cannot be the output folder: it holds your home folder/],
      [['--out', 'content/guide/site'], {}, /cannot be the output folder: it is inside the content folder/],
      // A repository's history, its hooks, another project's working tree: --force or not.
      [['--out', '.git'], {}, /cannot be the output folder: it is the version control folder .*\.git: the repository's history/],
      [['--out', '.git/hooks'], {}, /cannot be the output folder: it is inside the version control folder .*\.git/],
      [['--out', 'vendor/other'], {}, /cannot be the output folder: it is the working tree of a repository \(it holds \.git\)/],
    ];
    mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    mkdirSync(join(root, 'vendor', 'other', '.git'), { recursive: true });
    writeFileSync(join(root, 'vendor', 'other', 'main.c'), 'int main(void) { return 0; }\n');
    for (const [args, env, message] of cases) {
      const run = runDocs(['build', ...args], { cwd: root, env });
      expectRefused(run, 2, message, /fix: choose a folder of its own for the output/);
      // --force changes nothing for these.
      expectRefused(runDocs(['build', '--force', ...args], { cwd: root, env }), 2, message);
    }
    expect(snapshotTree(join(root, 'content'))).toEqual(sources);
    expect(snapshotTree(dist)).toEqual(output);
    expect(readFileSync(join(home, 'thesis.tex'), 'utf8')).toBe('years of work');
    expect(readFileSync(join(root, '.git', 'HEAD'), 'utf8')).toBe('ref: refs/heads/main\n');
    expect(existsSync(join(root, 'vendor', 'other', 'main.c'))).toBe(true);
    expect(existsSync(join(root, 'site.config.ts'))).toBe(true);
  });

  it('refuses, --force or not, a folder holding a source found only by reading: an import of the config, a $ref target, a folder linked into the content', () => {
    // 1. The config imports ../_shared/config.ts.
    const { root } = site();
    const shared = join(root, '..', '_shared');
    const config = readFileSync(join(shared, 'config.ts'), 'utf8');
    expectRefused(runDocs(['build', '--force', '--out', shared], { cwd: root }), 2, /cannot be the output folder: it holds the site's sources \(.*_shared.config\.ts\)/, /fix: choose a folder of its own for the output/);
    expect(readFileSync(join(shared, 'config.ts'), 'utf8')).toBe(config);
    // 2. A spec's $ref names a schema in a folder of its own.
    const api = copyFixture('openapi');
    mkdirSync(join(api, 'schemas'));
    writeFileSync(join(api, 'schemas', 'team.yaml'), 'type: object\nproperties:\n  id:\n    type: integer\n');
    const spec = join(api, 'specs', 'api.yaml');
    writeFileSync(spec, readFileSync(spec, 'utf8').replaceAll("$ref: '#/components/schemas/Team'", "$ref: '../schemas/team.yaml'"));
    expect(runDocs(['build'], { cwd: api }).code).toBe(0);
    expectRefused(runDocs(['build', '--force', '--out', 'schemas'], { cwd: api }), 2, /it holds .*schemas.team\.yaml, which the site is built from/);
    expect(existsSync(join(api, 'schemas', 'team.yaml'))).toBe(true);
    // 3. The content reaches a folder of pictures through a symbolic link.
    const linked = site().root;
    mkdirSync(join(linked, 'pics'));
    cpSync(join(linked, 'content', 'guide', 'img', 'diagram.svg'), join(linked, 'pics', 'diagram.svg'));
    symlinkSync('../../pics', join(linked, 'content', 'guide', 'pics'));
    writeFileSync(join(linked, 'content', 'guide', 'pictures.md'), '# Pictures\n\n![The diagram](./pics/diagram.svg)\n');
    // Named as the link that reaches it, the thing to change.
    expectRefused(runDocs(['build', '--force', '--out', 'pics'], { cwd: linked }), 2, /error content\/guide\/pics: is a symbolic link to the output folder .*pics, which a build replaces whole/);
    expect(existsSync(join(linked, 'pics', 'diagram.svg'))).toBe(true);
  });

  it('names a symbolic link of the content to the output as the link to change, and an --out link to nothing as such', () => {
    const { root } = site();
    symlinkSync('../../dist', join(root, 'content', 'guide', 'built'));
    expectRefused(runDocs(['build'], { cwd: root }), 2, /error content\/guide\/built: is a symbolic link to the output folder .*dist, which a build replaces whole/, /fix: delete the link, or point it at a folder outside the output/);
    rmSync(join(root, 'content', 'guide', 'built'));
    const target = join(dirname(root), 'not-made-yet');
    symlinkSync(target, join(root, 'outlink'));
    expectRefused(runDocs(['build', '--out', 'outlink'], { cwd: root }), 2, new RegExp(`cannot be the output folder: it is a symbolic link to ${target.replace(/[/.-]/g, '\\$&')}, which does not exist`), /fix: create that folder first/);
    expect(existsSync(target)).toBe(false);
  });

  it("refuses, --force or not, a folder holding a config's import when the site sits inside docs' own folder or its path begins like it", () => {
    // The portal's root is the package's; a site at /work/docs-portal beside /work/docs begins like it too.
    for (const parent of [join(REPO, 'node_modules', '.cache'), dirname(REPO)]) {
      mkdirSync(parent, { recursive: true });
      const root = mkdtempSync(join(parent, `${parent === dirname(REPO) ? `${REPO.split('/').pop()}-` : ''}docs-site-`));
      try {
        cpSync(join(REPO, 'test', 'fixtures', 'basic', 'content'), join(root, 'content'), { recursive: true });
        cpSync(join(REPO, 'test', 'fixtures', '_shared', 'config.ts'), join(root, 'lib', 'config.ts'));
        writeFileSync(join(root, 'site.config.ts'), "import { fixtureConfig } from './lib/config';\nexport default fixtureConfig();\n");
        expect(runDocs(['build'], { cwd: root }).code).toBe(0);
        expectRefused(runDocs(['build', '--force', '--out', 'lib'], { cwd: root }), 2, /cannot be the output folder: it holds the site's sources \(.*lib.config\.ts\)/);
        expect(readFileSync(join(root, 'lib', 'config.ts'), 'utf8')).toBe(readFileSync(join(REPO, 'test', 'fixtures', '_shared', 'config.ts'), 'utf8'));
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    }
  });

  it('refuses a symbolic link to the content folder, a file, and a non-empty folder docs did not write (which --force allows)', () => {
    const { root, sources } = site();
    symlinkSync(join(root, 'content'), join(root, 'public'));
    expectRefused(runDocs(['build', '--out', 'public'], { cwd: root }), 2, /holds the site's sources/);
    writeFileSync(join(root, 'notes.txt'), 'keep me');
    expectRefused(runDocs(['build', '--out', 'notes.txt'], { cwd: root }), 2, /it is a file, not a folder/);
    // The build's own cache, which it reads and writes while it replaces the output (--force took it, store and all).
    expectRefused(runDocs(['build', '--out', 'node_modules/.cache/docs', '--force'], { cwd: root }), 2, /cannot be the output folder: it holds the build's cache/);
    expectRefused(runDocs(['build', '--out', 'node_modules/.cache/docs/packs', '--force'], { cwd: root }), 2, /cannot be the output folder: it is inside the build's cache/);
    expect(existsSync(join(root, 'node_modules/.cache/docs/store.lmdb'))).toBe(true);
    mkdirSync(join(root, 'photos'));
    writeFileSync(join(root, 'photos', 'holiday.jpg'), 'jpeg bytes');
    expectRefused(runDocs(['build', '--out', 'photos'], { cwd: root }), 2, /holds 1 entry \(e\.g\. holiday\.jpg\) that docs did not write/, /pass --force/);
    expect(readFileSync(join(root, 'photos', 'holiday.jpg'), 'utf8')).toBe('jpeg bytes');
    expect(snapshotTree(join(root, 'content'))).toEqual(sources);
    // The user says this folder may go: it is replaced, and from now on it is known as an output.
    const forced = runDocs(['build', '--out', 'photos', '--force'], { cwd: root });
    expect(forced.code, forced.stderr).toBe(0);
    expect(existsSync(join(root, 'photos', 'holiday.jpg'))).toBe(false);
    expect(readFileSync(join(root, 'photos', '.docs-output.json'), 'utf8')).toContain('"generator":"docs"');
    expect(runDocs(['build', '--out', 'photos'], { cwd: root }).code).toBe(0);
  });

  it('never writes through a symbolic link found inside the output: the link goes, a real folder takes its place', () => {
    const { root, dist, output } = site();
    // Built here once, so the next build updates the output in place.
    expect(runDocs(['build', '--root', root]).code).toBe(0);
    // A folder of the output replaced by hand with a link to a folder of someone else's files.
    const victim = join(root, '..', 'victim');
    mkdirSync(victim);
    writeFileSync(join(victim, 'index.html'), 'MY OWN FILE');
    rmSync(join(dist, 'guide'), { recursive: true });
    symlinkSync(victim, join(dist, 'guide'));
    appendFileSync(join(root, 'content/guide/faq.md'), '\nOne more answer.\n');
    const run = runDocs(['build', '--root', root]);
    expect(run.code, run.stderr).toBe(0);
    expect(readdirSync(victim)).toEqual(['index.html']);
    expect(readFileSync(join(victim, 'index.html'), 'utf8')).toBe('MY OWN FILE');
    // The output is whole again: every page the link hid is a real file, as before.
    const pages = (tree: Map<string, string>): string[] => [...tree.keys()].filter((file) => file.endsWith('.html')).sort();
    expect(pages(snapshotTree(dist))).toEqual(pages(output));
    expect(lstatSync(join(dist, 'guide')).isDirectory()).toBe(true);
    expect(readRoute(dist, '/guide/faq')).toContain('One more answer.');
  });

  it('publishes no file a template links to outside the repository (a favicon linked to /proc/self/environ), and a linked one inside it', () => {
    const { root, dist, output } = site();
    const secret = join(root, '..', 'ci-secrets.env');
    writeFileSync(secret, 'DEPLOY_TOKEN=hunter2\n');
    mkdirSync(join(root, 'templates'));
    for (const target of [secret, '/proc/self/environ']) {
      rmSync(join(root, 'templates/favicon.svg'), { force: true });
      symlinkSync(target, join(root, 'templates/favicon.svg'));
      expectRefused(runDocs(['build'], { cwd: root }), 1, "templates/favicon.svg: is a symbolic link that leads out of the site's repository, so it is not published", 'fix: copy the file into templates/');
      expect(snapshotTree(dist)).toEqual(output);
    }
    rmSync(join(root, 'templates/favicon.svg'));
    symlinkSync(secret, join(root, 'templates/page.html'));
    expectRefused(runDocs(['build'], { cwd: root }), 1, "templates/page.html: is a symbolic link that leads out of the site's repository");
    rmSync(join(root, 'templates/page.html'));
    // A link within the site is followed, as a page's are.
    writeFileSync(join(root, 'content/guide/icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>');
    symlinkSync(join(root, 'content/guide/icon.svg'), join(root, 'templates/favicon.svg'));
    const built = runDocs(['build'], { cwd: root });
    expect(built.code, built.stderr).toBe(0);
    expect(readFileSync(join(dist, 'favicon.svg'), 'utf8')).toContain('<circle r="4"/>');
    expect([...snapshotTree(dist).values()].some((text) => text.includes('hunter2'))).toBe(false);
  });

  it('refuses a slug or id that climbs out of the output, naming the file and the line', () => {
    for (const [frontmatter, key] of [['slug: /../../escape', 'slug'], ['slug: ../../../escape', 'slug'], ['id: ../../../../escape', 'id']] as const) {
      const { root, dist, output } = site();
      writeFileSync(join(root, 'content/guide/zebra.md'), `---\ntitle: Zebra\n${frontmatter}\n---\n\nStripes.\n`);
      const run = runDocs(['build'], { cwd: root });
      expectRefused(run, 1, new RegExp(`content/guide/zebra\\.md:3: its route "[^"]*" has a \`\\.\` or \`\\.\\.\` segment`), `fix: give \`${key}\` a value of plain path segments`);
      expect(existsSync(join(root, '..', 'escape')) || existsSync(join(root, 'escape')) || existsSync(join(root, '..', '..', 'escape'))).toBe(false);
      expect(snapshotTree(dist)).toEqual(output);
    }
  });

  it("refuses a slug that would overwrite the site's own files, or that the servers answer themselves", () => {
    for (const [slug, reason] of [
      ['/assets/app.js', 'is reserved for the site\'s own files'],
      ['/manifest.json', 'is the name of one of the site\'s own files'],
      ['/index.html', 'ends a segment in `.html`'],
      ['/.docs-output.json', 'is reserved for the site\'s own files'],
      // What the servers answer themselves: a page there builds but no reader reaches it.
      ['/api/login', 'is the login call (POST /api/login), which the gated host and `docs serve` answer themselves'],
      ['/__docs/events', 'is reserved for the addresses `docs serve` answers itself'],
    ] as const) {
      const { root, dist, output } = site();
      writeFileSync(join(root, 'content/guide/zebra.md'), `---\ntitle: Zebra\nslug: ${slug}\n---\n\nStripes.\n`);
      expectRefused(runDocs(['build'], { cwd: root }), 1, `content/guide/zebra.md:3: its route "${slug}" ${reason}`);
      expect(snapshotTree(dist)).toEqual(output);
    }
  });

  it('refuses a route segment too long for a file name in bytes, at its line, and builds a deep route of long segments', () => {
    const { root, dist, output } = site();
    // 90 CJK characters: 90 characters, 270 bytes, past the 255 a file name may hold (ENAMETOOLONG before).
    writeFileSync(join(root, 'content/guide/zebra.md'), `---\ntitle: Zebra\nslug: /guide/${'斑'.repeat(90)}\n---\n\nStripes.\n`);
    expectRefused(runDocs(['build'], { cwd: root }), 1, /content\/guide\/zebra\.md:3: its route "[^"]+" has a segment longer than 200 bytes/);
    expect(snapshotTree(dist)).toEqual(output);
    // Two segments of 150 characters each: every folder name fits, and so must the page's data file.
    const deep = `/guide/${'a'.repeat(150)}/${'b'.repeat(150)}`;
    writeFileSync(join(root, 'content/guide/zebra.md'), `---\ntitle: Zebra\nslug: ${deep}\n---\n\nStripes.\n`);
    const run = runDocs(['build'], { cwd: root });
    expect(run.code, run.stderr).toBe(0);
    expect(readRoute(dist, deep)).toContain('Stripes.');
  });

  it('refuses a route longer than 1,000 bytes, from a slug or from folders nested deep, at the file: the build cache crashed on its key (exit 70)', () => {
    const { root, dist, output } = site();
    const long = `/guide/${Array.from({ length: 30 }, () => 'y'.repeat(190)).join('/')}`;
    writeFileSync(join(root, 'content/guide/zebra.md'), `---\ntitle: Zebra\nslug: ${long}\n---\n\nStripes.\n`);
    expectRefused(runDocs(['build'], { cwd: root }), 1, /content\/guide\/zebra\.md:3: its route "[^"]+" is longer than 1,000 bytes \(5,736\)/);
    expect(snapshotTree(dist)).toEqual(output);
    rmSync(join(root, 'content/guide/zebra.md'));
    const deep = join(root, 'content/guide', ...Array.from({ length: 600 }, () => 'd'));
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, 'x.md'), '# Deep\n');
    expectRefused(runDocs(['build'], { cwd: root }), 1, /content\/guide\/(d\/)+x\.md: its route "[^"]+" is longer than 1,000 bytes/);
    expect(snapshotTree(dist)).toEqual(output);
  });

  it('refuses file names and slugs with #, ? or %, with the fix, and builds names with spaces end to end', async () => {
    const { root, dist, output } = site();
    writeFileSync(join(root, 'content/guide/c#.md'), '# C sharp\n');
    expectRefused(runDocs(['build'], { cwd: root }), 1, 'content/guide/c#.md: its route "/guide/c#" holds `#`', 'fix: rename the file or folder (e.g. to guide/c-sharp.md), or set `slug:` in its frontmatter');
    rmSync(join(root, 'content/guide/c#.md'));
    writeFileSync(join(root, 'content/guide/zebra.md'), '---\ntitle: Zebra\nslug: 100%\n---\n\nText.\n');
    expectRefused(runDocs(['build'], { cwd: root }), 1, 'content/guide/zebra.md:3: its route "/guide/100%" holds `%`');
    writeFileSync(join(root, 'content/guide/zebra.md'), '---\ntitle: Zebra\nslug: why?\n---\n\nText.\n');
    expectRefused(runDocs(['build'], { cwd: root }), 1, 'content/guide/zebra.md:3: its route "/guide/why?" holds `?`');
    writeFileSync(join(root, 'content/guide/zebra.md'), '# Zebra\n');
    // A name that ends with a space built a page no link reaches: a browser drops the space.
    writeFileSync(join(root, 'content/guide/trail .md'), '# Trail\n');
    expectRefused(runDocs(['build'], { cwd: root }), 1, 'content/guide/trail .md: its route "/guide/trail " has a segment that starts or ends with a space', 'fix: rename the file or folder (e.g. to guide/trail.md)');
    rmSync(join(root, 'content/guide/trail .md'));
    expect(snapshotTree(dist)).toEqual(output);

    writeFileSync(join(root, 'content/guide/zebra.md'), '# Zebra\n');
    writeFileSync(join(root, 'content/guide/meeting notes.md'), '# Meeting notes\n\n## Agenda\n');
    writeFileSync(join(root, 'content/guide/café.md'), '# Café\n');
    appendFileSync(join(root, 'content/guide/faq.md'), '\n[notes](./meeting%20notes#agenda) [file](<./meeting notes.md>) [coffee](/guide/caf%C3%A9) [raw](/guide/café)\n');
    const run = runDocs(['build'], { cwd: root });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('warning');
    expect(readRoute(dist, '/guide/meeting notes')).toContain('Meeting notes');
    const faq = readRoute(dist, '/guide/faq');
    expect(faq).toContain('href="/guide/meeting%20notes"');
    // Served by the host as a browser asks for it, percent-encoded.
    const handler = createStaticHandler(dist);
    const { createServer } = await import('node:http');
    const server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      for (const path of ['/guide/meeting%20notes', '/guide/caf%C3%A9']) {
        const response = await fetch(`http://127.0.0.1:${port}${path}`);
        expect(response.status, path).toBe(200);
        expect(await response.text()).toMatch(/Meeting notes|Café/);
      }
    } finally {
      server.close();
    }
  });

  it('publishes an image whose (legal) name is too long for a name with a hash added: shortened, still its own', () => {
    const { root, dist } = site();
    const long = `${'p'.repeat(200)}-${'q'.repeat(47)}`;
    cpSync(join(root, 'content', 'guide', 'img', 'diagram.svg'), join(root, 'content', 'guide', 'img', `${long}.svg`));
    writeFileSync(join(root, 'content', 'guide', 'long.md'), `# Long name\n\n![The diagram](./img/${long}.svg)\n`);
    const run = runDocs(['build'], { cwd: root });
    expect(run.code, run.stderr).toBe(0);
    const published = readdirSync(join(dist, 'assets', 'images')).filter((file) => file.startsWith('pppp'));
    expect(published).toHaveLength(1);
    expect(Buffer.byteLength(published[0]!)).toBeLessThanOrEqual(200);
    expect(published[0]).toMatch(/^p+\.[0-9a-f]{8}\.svg$/);
    expect(readRoute(dist, '/guide/long')).toContain(`src="/assets/images/${published[0]}"`);
  });

  it('publishes hidden and dot-named images under names that do not start with a dot (hosts refuse dotfiles)', () => {
    const { root, dist } = site();
    for (const name of ['.hidden.svg', '...svg', '.dotted.name.svg']) cpSync(join(root, 'content', 'guide', 'img', 'diagram.svg'), join(root, 'content', 'guide', 'img', name));
    writeFileSync(join(root, 'content', 'guide', 'hidden.md'), '# Hidden\n\n![One](./img/.hidden.svg)\n\n![Two](./img/...svg)\n\n![Three](./img/.dotted.name.svg)\n');
    const run = runDocs(['build'], { cwd: root });
    expect(run.code, run.stderr).toBe(0);
    const sources = [...readRoute(dist, '/guide/hidden').matchAll(/<img[^>]* src="([^"]+)"/g)].map((match) => match[1]!);
    expect(sources).toHaveLength(3);
    for (const src of sources) {
      expect(src).toMatch(/^\/assets\/images\/[^/]+\.svg$/);
      expect(src.split('/').filter((segment) => segment.startsWith('.')), src).toEqual([]);
      expect(existsSync(join(dist, src)), src).toBe(true);
    }
    expect(sources[0]).toMatch(/^\/assets\/images\/hidden\.[0-9a-f]{8}\.svg$/);
  });

  it('serves no dotfile a finished build was left with (.env, .git), and nothing in an SVG opened on its own runs', async () => {
    const { dist } = site();
    writeFileSync(join(dist, '.env'), 'DATABASE_PASSWORD=hunter2\n');
    mkdirSync(join(dist, '.git'));
    writeFileSync(join(dist, '.git', 'config'), '[remote "origin"]\n\turl = https://token:hunter2@git.quad.example/quad/docs\n');
    mkdirSync(join(dist, '.well-known'));
    writeFileSync(join(dist, '.well-known', 'security.txt'), 'Contact: mailto:it@quad.example\n');
    const { createServer } = await import('node:http');
    const server = createServer(createStaticHandler(dist));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      for (const path of ['/.env', '/.git/config', '/.git/', '/%2egit/config', '/guide/../.env']) {
        const response = await fetch(origin + path);
        expect(response.status, path).toBe(404);
        expect(await response.text(), path).not.toContain('hunter2');
      }
      expect(await (await fetch(`${origin}/.well-known/security.txt`)).text()).toContain('Contact:');
      const svg = readdirSync(join(dist, 'assets', 'images')).find((file) => file.endsWith('.svg'))!;
      const image = await fetch(`${origin}/assets/images/${svg}`);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox");
    } finally {
      server.close();
    }
  });

  it('removes the staging folders of builds that died, and a build killed at any point leaves the output whole', async () => {
    const { root, dist, output } = site();
    const dead = join(root, '.dist.staging-999999-1');
    mkdirSync(join(dead, 'assets'), { recursive: true });
    writeFileSync(join(dead, 'index.html'), 'half a build');
    mkdirSync(join(root, '.dist.staging-999999-2.previous'));
    const unrelated = join(root, '.other.staging-999999-1');
    mkdirSync(unrelated);
    appendFileSync(join(root, 'content/guide/faq.md'), '\nOne more line.\n');
    for (const delay of [150, 600, 1200]) {
      const child = spawn(process.execPath, [join(REPO, 'bin', 'docs.mjs'), 'build', '--no-cache'], { cwd: root, stdio: 'ignore' });
      // Heard from the start: a build may be done before the kill (then the kill finds nothing to stop).
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await new Promise((resolve) => setTimeout(resolve, delay));
      child.kill('SIGKILL');
      await exited;
      // Whatever the moment, the previous output is either intact or already replaced by a whole one.
      expect(existsSync(join(dist, 'index.html')) && existsSync(join(dist, 'manifest.json'))).toBe(true);
    }
    const run = runDocs(['build'], { cwd: root });
    expect(run.code, run.stderr).toBe(0);
    expect(readdirSync(root).filter((name) => name.includes('.staging-'))).toEqual(['.other.staging-999999-1']);
    expect(readRoute(dist, '/guide/faq')).toContain('One more line.');
    expect(snapshotTree(dist).size).toBe(output.size);
  });
});

describe('docs build does not crash or hang on any input', () => {
  const cases: [string, (root: string) => void, RegExp][] = [
    ['5,000 nested block quotes', (root) => writeFileSync(join(root, 'content/guide/deep.md'), `# Deep\n\n${'> '.repeat(5000)}x\n`), /content\/guide\/deep\.md:3:1: lists or block quotes are nested more than 100 levels deep here/],
    ['a list nested 800 levels', (root) => writeFileSync(join(root, 'content/guide/deep.md'), `# Deep\n\n${Array.from({ length: 800 }, (_, i) => `${'  '.repeat(i)}- item`).join('\n')}\n`), /content\/guide\/deep\.md:\d+:1: lists or block quotes are nested more than 100 levels deep/],
    ['a 2 MB line of emphasis markers', (root) => writeFileSync(join(root, 'content/guide/long.md'), `# Long\n\n${'**a*'.repeat(500_000)}\n`), /content\/guide\/long\.md:3:1: this paragraph holds 1\.5M? ?[\d,]* emphasis, link and code markers|content\/guide\/long\.md:3:1: this paragraph holds [\d,]+ emphasis, link and code markers/],
    ['a 2 MB paragraph of unclosed links over many lines', (root) => writeFileSync(join(root, 'content/guide/long.md'), `# Long\n\n${'[a]('.repeat(40).concat('\n').repeat(12_000)}`), /content\/guide\/long\.md:3:1: this paragraph holds [\d,]+ emphasis, link and code markers \(\*, _, \[, \], `, <\), more than the 10,000/],
    ['40 paragraphs each just under the markers limit', (root) => writeFileSync(join(root, 'content/guide/thick.md'), `# Thick\n\n${Array.from({ length: 40 }, () => '*_a'.repeat(3333)).join('\n\n')}\n`), /content\/guide\/thick\.md:\d+:1: the page holds more emphasis, link and code markers/],
    // Refused at the line where the HTML passes 1,000 levels, on whichever thread renders it (a render
    // thread's stack, four times the main thread's, rendered 4,999 levels; the main thread's ran out).
    ['4,999 nested <sup> elements', (root) => writeFileSync(join(root, 'content/guide/deep.md'), `# Deep\n\nIntro.\n\n${'<sup>'.repeat(4999)}x${'</sup>'.repeat(4999)}\n`), /content\/guide\/deep\.md:5: is nested too deeply to render: its HTML is more than 1,000 elements deep by this line/],
    ['20,000 <div> blocks never closed', (root) => writeFileSync(join(root, 'content/guide/deep.md'), `# Deep\n\n${'<div>\n\n'.repeat(20_000)}x\n`), /content\/guide\/deep\.md:2003: is nested too deeply to render/],
    ['a 5 MB page', (root) => writeFileSync(join(root, 'content/guide/huge.md'), `# Huge\n\n${'Plain words fill the page. '.repeat(200_000)}\n`), /content\/guide\/huge\.md: is 5\.\d MiB, more than a page may be \(4 MiB\)/],
    ['a 5 MB category file (not called a page)', (root) => writeFileSync(join(root, 'content/guide/_category_.json'), JSON.stringify({ label: 'Guide', description: 'x'.repeat(5_500_000) })), /content\/guide\/_category_\.json: is 5\.\d MiB, more than a file of the content folder read by the build may be \(4 MiB\)\n {2}fix: a category file holds a label, a position and a description: keep it to those/],
    ['a symbolic link loop between two pages', (root) => {
      symlinkSync('b.md', join(root, 'content/guide/a.md'));
      symlinkSync('a.md', join(root, 'content/guide/b.md'));
    }, /content\/guide\/a\.md: is a symbolic link that leads back to itself \(a loop\)/],
    ['a dangling symbolic link to a page', (root) => symlinkSync('gone.md', join(root, 'content/guide/moved.md')), /content\/guide\/moved\.md: is a symbolic link to a file that does not exist/],
    ['a folder linked into itself', (root) => symlinkSync('..', join(root, 'content/guide/loop')), /content\/guide\/loop: is a symbolic link to a folder that holds it \(a loop\)/],
    // Followed blindly, two links back up are 2^40 paths (the kernel stops a path at 40 links).
    ['two folders linked into themselves', (root) => {
      symlinkSync('..', join(root, 'content/guide/loop'));
      symlinkSync('..', join(root, 'content/guide/round'));
    }, /content\/guide\/loop: is a symbolic link to a folder that holds it \(a loop\)[\s\S]*content\/guide\/round: is a symbolic link to a folder that holds it \(a loop\)/],
    ['a folder linked to the filesystem root', (root) => symlinkSync('/', join(root, 'content/guide/everything')), /content\/guide\/everything: is a symbolic link to a folder outside the site's repository/],
    // The link is walked first (its name sorts first): the folder it leads to is then the one reported.
    ['a link to a folder of the content, walked before it', (root) => {
      mkdirSync(join(root, 'content/guide/runbooks'));
      writeFileSync(join(root, 'content/guide/runbooks/restart.md'), '# Restarting the stack\n\nStop it, then start it.\n');
      symlinkSync('runbooks', join(root, 'content/guide/alias'));
    }, /content\/guide\/runbooks: is a folder a symbolic link in the content folder already leads to: its pages would be built twice/],
    // Read, these never end: a pipe waits for a writer, a device has no end.
    ['a page that is a named pipe', (root) => void spawnSync('mkfifo', [join(root, 'content/guide/pipe.md')]), /content\/guide\/pipe\.md: is not a regular file \(a pipe, a socket or a device\)/],
    ['a page linked to /dev/zero', (root) => symlinkSync('/dev/zero', join(root, 'content/guide/zero.md')), /content\/guide\/zero\.md: is a symbolic link to a file outside the site's repository/],
    ['a page linked to /etc/passwd', (root) => symlinkSync('/etc/passwd', join(root, 'content/guide/users.md')), /content\/guide\/users\.md: is a symbolic link to a file outside the site's repository/],
    ['a folder linked to /etc', (root) => symlinkSync('/etc', join(root, 'content/guide/etc')), /content\/guide\/etc: is a symbolic link to a folder outside the site's repository/],
    // The content folder linked in from a folder outside the site (~/notes, say): its links may not
    // climb into the folder that holds it (~/.ssh). It was published with exit 0.
    ['a content folder linked in from outside the site, whose link climbs out of it', (root) => {
      const home = mkdtempSync(join(tmpdir(), 'docs-home-'));
      mkdirSync(join(home, '.ssh'));
      writeFileSync(join(home, '.ssh', 'id_rsa'), '-----BEGIN OPENSSH PRIVATE KEY----- not for the docs\n');
      cpSync(join(root, 'content'), join(home, 'notes'), { recursive: true });
      rmSync(join(root, 'content'), { recursive: true });
      symlinkSync(join(home, 'notes'), join(root, 'content'));
      symlinkSync('../../.ssh/id_rsa', join(home, 'notes', 'guide', 'key.txt'));
      appendFileSync(join(home, 'notes', 'guide', 'faq.md'), '\nSee [my key](./key.txt).\n');
    }, /content\/guide\/faq\.md:\d+:\d+: link to "\.\/key\.txt": the file is a symbolic link that leads out of the site's repository, so it is not published/],
    ['an image linked to /etc/passwd', (root) => {
      symlinkSync('/etc/passwd', join(root, 'content/guide/users.png'));
      appendFileSync(join(root, 'content/guide/faq.md'), '\n![Users](./users.png)\n');
    }, /content\/guide\/faq\.md:\d+:\d+: image "\.\/users\.png" is a symbolic link that leads out of the site's repository/],
    // Inside the repository, but private: its .git/config holds the token a CI checkout pushes with.
    ['a linked file that leads into the repository\'s .git', (root) => {
      mkdirSync(join(root, '.git'));
      writeFileSync(join(root, '.git', 'config'), '[http]\n\textraheader = AUTHORIZATION: basic c2VjcmV0LXRva2Vu\n');
      symlinkSync('../../.git/config', join(root, 'content/guide/settings.txt'));
      appendFileSync(join(root, 'content/guide/faq.md'), '\n[settings](./settings.txt)\n');
    }, /content\/guide\/faq\.md:\d+:\d+: link to "\.\/settings\.txt": content\/guide\/settings\.txt is a symbolic link into a private place of the repository/],
    // A link out of the repository to a device or a folder: said as leading out, not as what it leads to.
    ['a linked file that leads to /dev/zero', (root) => {
      symlinkSync('/dev/zero', join(root, 'content/guide/zeros.bin'));
      appendFileSync(join(root, 'content/guide/faq.md'), '\n[zeros](./zeros.bin)\n');
    }, /content\/guide\/faq\.md:\d+:\d+: link to "\.\/zeros\.bin": the file is a symbolic link that leads out of the site's repository/],
  ];
  for (const [name, change, message] of cases) {
    it(`fails on ${name} with its file and line, exit 1, output untouched`, () => {
      const { root, dist, output } = site();
      change(root);
      const run = runDocs(['build'], { cwd: root });
      expectRefused(run, 1, message, /Build failed: \d+ errors?; the previous output was left untouched/);
      expect(snapshotTree(dist)).toEqual(output);
    });
  }

  it('publishes nothing of a home folder kept in git (dotfiles): the site\'s folder is the boundary, not that repository', () => {
    const home = mkdtempSync(join(tmpdir(), 'docs-dotfiles-'));
    mkdirSync(join(home, '.git'));
    mkdirSync(join(home, '.ssh'));
    writeFileSync(join(home, '.ssh', 'id_ed25519'), '-----BEGIN OPENSSH PRIVATE KEY----- not for the docs\n');
    writeFileSync(join(home, 'notes.txt'), 'a note in the home folder\n');
    const { root } = site();
    const inside = join(home, 'projects', 'site');
    mkdirSync(dirname(inside), { recursive: true });
    cpSync(join(root, '..', '_shared'), join(home, 'projects', '_shared'), { recursive: true });
    cpSync(root, inside, { recursive: true, verbatimSymlinks: true });
    rmSync(join(inside, 'dist'), { recursive: true, force: true });
    symlinkSync(join(home, '.ssh', 'id_ed25519'), join(inside, 'content/guide/key.txt'));
    symlinkSync(join(home, 'notes.txt'), join(inside, 'content/guide/notes.txt'));
    appendFileSync(join(inside, 'content/guide/faq.md'), '\n[key](./key.txt) and [notes](./notes.txt)\n');
    const run = runDocs(['build'], { cwd: inside, env: { HOME: home } });
    expectRefused(run, 1, /link to "\.\/key\.txt": the file is a symbolic link that leads out of the site's repository/, /link to "\.\/notes\.txt": the file is a symbolic link that leads out of the site's repository/);
    expect(existsSync(join(inside, 'dist'))).toBe(false);
  });

  it('builds a fence that marks lines far past its end, at once', () => {
    const { root } = site();
    writeFileSync(join(root, 'content/guide/marked.md'), `# Marked\n\n${'```js {1-20000000}\nconst lap = 1;\n```\n\n'.repeat(12)}`);
    // (A set of 20 million marked lines per fence took 7 s each and 1.9 GB: the twelve ran past the test's timeout.)
    const run = runDocs(['build'], { cwd: root });
    expect(run.code, run.stderr).toBe(0);
    expect(readRoute(join(root, 'dist'), '/guide/marked').match(/line highlighted/g)).toHaveLength(12);
  });

  it('names a bad locale, a content folder that is a file, a template that is a folder, a broken link as output and an archive folder that is not there, never a stack trace', () => {
    const { root, dist, output } = site();
    const config = readFileSync(join(root, 'site.config.ts'), 'utf8');
    writeFileSync(join(root, 'site.config.ts'), config.replace('fixtureConfig()', "fixtureConfig({ locale: 'xx_ZZ!!' })"));
    expectRefused(runDocs(['build'], { cwd: root }), 2, /`locale` "xx_ZZ!!" is not a locale/, /fix: write it as language-REGION, e.g. "en-GB"/);
    writeFileSync(join(root, 'site.config.ts'), config.replace('fixtureConfig()', "fixtureConfig({ contentDir: 'notes.txt' })"));
    writeFileSync(join(root, 'notes.txt'), 'not a folder');
    expectRefused(runDocs(['build'], { cwd: root }), 2, /the content folder notes\.txt is a file, not a folder/);
    writeFileSync(join(root, 'site.config.ts'), config);
    mkdirSync(join(root, 'templates/page.html'), { recursive: true });
    expectRefused(runDocs(['build'], { cwd: root }), 1, /templates\/page\.html: is a folder, not a file/);
    rmSync(join(root, 'templates'), { recursive: true });
    symlinkSync(join(root, 'gone'), join(root, 'dangling'));
    expectRefused(runDocs(['build', '--out', 'dangling/out'], { cwd: root }), 2, /a folder on the way does not exist/);
    // The archive's folder is checked before the output is replaced, not after.
    appendFileSync(join(root, 'content/guide/faq.md'), '\nA late answer.\n');
    expectRefused(runDocs(['build', '--archive', '/nonexistent-folder/site.tar.gz'], { cwd: root }), 2, /cannot be the archive: its folder \/nonexistent-folder does not exist/);
    mkdirSync(join(root, 'site.tar.gz'));
    expectRefused(runDocs(['build', '--archive', 'site.tar.gz'], { cwd: root }), 2, /cannot be the archive: a folder has that name/);
    // A folder that takes no new file (there the archive failed with a stack trace, the output replaced).
    if (process.platform === 'linux') expectRefused(runDocs(['build', '--archive', '/proc/self/fd/site.tar.gz'], { cwd: root }), 2, /cannot be the archive: no file can be written in its folder \/proc\/self\/fd \(ENOENT\)/);
    expect(snapshotTree(dist)).toEqual(output);
  });

  it('refuses a homepage that names no page and a page shell missing a mark, output untouched', () => {
    const { root, dist, output } = site();
    const config = readFileSync(join(root, 'site.config.ts'), 'utf8');
    appendFileSync(join(root, 'content/guide/faq.md'), '\nA late answer.\n');
    // A misspelt homepage built a site without / (no index.html), exit 0.
    writeFileSync(join(root, 'site.config.ts'), config.replace('fixtureConfig()', "fixtureConfig({ homepage: { doc: 'home/indx' } })"));
    expectRefused(runDocs(['build'], { cwd: root }), 2, 'site.config.ts#/homepage/doc: `homepage.doc` names the page "home/indx", which is not in the content', 'fix: write "home/index"');
    writeFileSync(join(root, 'site.config.ts'), config.replace('fixtureConfig()', "fixtureConfig({ homepage: { doc: 'home/index.md' } })"));
    expectRefused(runDocs(['build'], { cwd: root }), 2, 'fix: write "home/index" (a page\'s path below the content folder, without .md)');
    writeFileSync(join(root, 'site.config.ts'), config);
    // The file is there, but its frontmatter `id` renamed the page: said so, not "not in the content".
    const home = readFileSync(join(root, 'content/home/index.md'), 'utf8');
    writeFileSync(join(root, 'content/home/index.md'), home.replace(/^---\n/, '---\nid: welcome\n'));
    expectRefused(runDocs(['build'], { cwd: root }), 2, 'site.config.ts#/homepage/doc: `homepage.doc` names "home/index", but the frontmatter `id` of home/index.md makes that page "home/welcome"', 'fix: write "home/welcome", or remove the `id` from home/index.md');
    writeFileSync(join(root, 'content/home/index.md'), home);
    // An empty shell built six empty pages, exit 0.
    mkdirSync(join(root, 'templates'));
    writeFileSync(join(root, 'templates/page.html'), '');
    const empty = runDocs(['build'], { cwd: root });
    expectRefused(empty, 1, 'templates/page.html: has no <!--docs:app--> mark, so pages would be empty', 'fix: put back <div id="__docs"><!--docs:app--></div>');
    expect(empty.stderr).toContain('has no <!--docs:head-script--> mark, so a signed-out reader would see the page before the login screen');
    expect(empty.stderr).toContain('Build failed: 7 errors');
    // A shell of one's own: a misspelt mark, one given twice, the page data outside its element.
    const shell = readFileSync(join(REPO, 'templates/page.html'), 'utf8')
      .replace('<!--docs:preload-->', '<!--docs:preloads-->')
      .replace('<!--docs:css-->" />', '<!--docs:css-->" /><link rel="stylesheet" href="<!--docs:css-->" />')
      .replace('<script type="application/json" id="__DOCS_DATA__"><!--docs:data--></script>', '<footer><!--docs:data--></footer>');
    writeFileSync(join(root, 'templates/page.html'), shell);
    expectRefused(runDocs(['build'], { cwd: root }), 1, 'templates/page.html:12: <!--docs:preloads--> is not a mark docs fills', 'fix: write <!--docs:preload-->', 'templates/page.html:10: holds <!--docs:css--> 2 times', '<!--docs:data--> is not directly inside the element with id="__DOCS_DATA__"');
    expect(snapshotTree(dist)).toEqual(output);
    // The generator's own shell, copied as a start, builds.
    writeFileSync(join(root, 'templates/page.html'), readFileSync(join(REPO, 'templates/page.html'), 'utf8'));
    expect(runDocs(['build'], { cwd: root }).code).toBe(0);
  });

  it('names an output folder it cannot create or write, and a page it cannot read, exit 2 and 1, never a stack trace', () => {
    const { root, dist, output } = site();
    writeFileSync(join(root, 'blocker'), 'a file where a folder should be');
    expectRefused(runDocs(['build', '--out', 'blocker/dist'], { cwd: root }), 2, /blocker\/dist: cannot create the output folder: a part of the path is a file, not a folder \(ENOTDIR\)/);
    // /proc refuses every new folder with ENOENT, on which Node's recursive mkdir retried for ever.
    if (process.platform === 'linux') expectRefused(runDocs(['build', '--out', '/proc/docs-site/dist'], { cwd: root, timeout: 30_000 }), 2, '/proc/docs-site/dist: cannot create the output folder: a folder on the way does not exist, or takes no new folder');
    // Permissions: as root, the build runs as `nobody`, for whom they hold.
    const asRoot = process.getuid?.() === 0;
    const parent = mkdtempSync(join(tmpdir(), 'docs-adv-ro-'));
    cpSync(root, join(parent, 'site'), { recursive: true, verbatimSymlinks: true });
    cpSync(join(root, '..', '_shared'), join(parent, '_shared'), { recursive: true });
    const copy = join(parent, 'site');
    spawnSync('chmod', ['-R', 'a+rX', parent]);
    mkdirSync(join(copy, 'locked'));
    chmodSync(join(copy, 'locked'), 0o555);
    const env = { ...process.env, HOME: parent };
    // `nobody` may not reach a Node kept below /root (npx's cache): then the system's Node runs the CLI.
    const nodeFor = (): string => {
      if (!asRoot) return process.execPath;
      const reachable = spawnSync(process.execPath, ['--version'], { uid: 65534, gid: 65534 });
      return reachable.status === 0 ? process.execPath : (['/usr/local/bin/node', '/usr/bin/node'].find(existsSync) ?? process.execPath);
    };
    const node = nodeFor();
    const runAs = (args: string[]): CliRun => {
      const result = spawnSync(node, [join(REPO, 'bin', 'docs.mjs'), ...args], { cwd: copy, encoding: 'utf8', env, ...(asRoot ? { uid: 65534, gid: 65534 } : {}) });
      return { code: result.status, stdout: result.stdout, stderr: result.stderr };
    };
    // A site folder below one this user may not enter (`nobody`, below root's 0700 folder): a usage error, not a crash in the option checks.
    const sealed = join(parent, 'sealed');
    mkdirSync(join(sealed, 'site'), { recursive: true });
    chmodSync(sealed, 0o700);
    if (asRoot) expectRefused(runAs(['build', '--root', join(sealed, 'site')]), 2, /--root .*sealed\/site cannot be reached: permission denied \(EACCES\)/, /fix: name the site folder by a path this user may read/);
    expectRefused(runAs(['build', '--no-cache', '--out', 'locked/dist']), 2, /locked\/dist: cannot create the output folder: permission denied \(EACCES\)/, /fix: choose a folder you may write to/);
    expectRefused(runAs(['build', '--no-cache', '--out', join(parent, 'archived'), '--archive', 'locked/site.tar.gz']), 2, /locked\/site\.tar\.gz: cannot be the archive: no file can be written in its folder .*locked \(EACCES\)/);
    expect(existsSync(join(parent, 'archived'))).toBe(false);
    chmodSync(join(copy, 'content/guide/faq.md'), 0o000);
    expectRefused(runAs(['build', '--no-cache', '--out', join(parent, 'out')]), 1, /content\/guide\/faq\.md: cannot be read: permission denied/);
    chmodSync(join(copy, 'content/guide/faq.md'), 0o644);
    // A folder that cannot be listed, with the build cache on (its fingerprint of the sources lists every folder first).
    mkdirSync(join(copy, 'content/guide/drafts'));
    writeFileSync(join(copy, 'content/guide/drafts/plan.md'), '# Plan\n');
    chmodSync(join(copy, 'content/guide/drafts'), 0o000);
    expectRefused(runAs(['build', '--out', join(parent, 'out')]), 1, /content\/guide\/drafts: is a folder that cannot be read: permission denied/, /fix: make the folder readable, or move it out of the content folder/);
    expect(snapshotTree(dist)).toEqual(output);
  });
});

describe('docs build is right by default', () => {
  it('reads CRLF line ends and a byte-order mark in pages and category files', () => {
    const { root, dist } = site();
    writeFileSync(join(root, 'content/guide/zebra.md'), '\uFEFF---\r\ntitle: Windows Zebra\r\nsidebar_label: Zebra (CRLF)\r\n---\r\n\r\n## Stripes\r\n\r\nBlack\r\nand white.\r\n');
    writeFileSync(join(root, 'content/guide/advanced/_category_.json'), '\uFEFF{\r\n  "label": "Deep dives"\r\n}\r\n');
    const run = runDocs(['build'], { cwd: root });
    expect(run.code, run.stderr).toBe(0);
    const html = readRoute(dist, '/guide/zebra');
    expect(html).toContain('<title>Windows Zebra | Docs</title>');
    expect(html).toContain('Zebra (CRLF)');
    expect(html).toContain('Deep dives');
    expect(html).not.toContain('title: Windows Zebra');
    expect(html).toContain('id="stripes"');
  });

  it('checks a relative link the way the browser resolves it: from a folder index page, ./zebra is /zebra', () => {
    const { root, dist, output } = site();
    appendFileSync(join(root, 'content/guide/index.md'), '\nSee [zebra](./zebra).\n');
    const run = runDocs(['build'], { cwd: root });
    expectRefused(run, 1, "content/guide/index.md:7:5: broken link → ./zebra: no page has the route /zebra (a browser resolves the link against the page's own address /guide)", 'fix: write /guide/zebra, or link the markdown file (e.g. ./zebra.md)');
    expect(snapshotTree(dist)).toEqual(output);
    writeFileSync(join(root, 'content/guide/index.md'), readFileSync(join(built, 'content/guide/index.md'), 'utf8') + '\nSee [zebra](./guide/zebra), [faq](faq.md) and [install](../guide/install?tab=ruby#top).\n');
    const fixed = runDocs(['build'], { cwd: root });
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(readRoute(dist, '/guide')).toContain('href="/guide/faq"');
  });

  it('takes links with a query string or percent-escapes without a false alarm', () => {
    const { root, dist } = site();
    writeFileSync(join(root, 'content/guide/café.md'), '# Café\n');
    appendFileSync(join(root, 'content/guide/faq.md'), '\n[q](/guide/install?tab=ruby) [q2](./install?x=1#intro) [pct](/guide/caf%C3%A9) [dot](/guide/install/) [md](./install.md?tab=ruby#x)\n');
    const run = runDocs(['build'], { cwd: root });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('broken link');
    expect(readRoute(dist, '/guide/faq')).toContain('href="/guide/install?tab=ruby#x"');
  });

  it('gives a page file named on macOS (a decomposed accent) the composed route a link typed anywhere names', () => {
    const { root, dist } = site();
    const decomposed = 'cafe\u0301';
    writeFileSync(join(root, `content/guide/${decomposed}.md`), '---\ntitle: Café\n---\n\n## Opening hours {#hours}\n\nEvery day.\n');
    // Typed on a keyboard (composed), copied from a macOS file name (decomposed), and as markdown files of either form.
    appendFileSync(join(root, 'content/guide/faq.md'), `\n[typed](/guide/café#hours) [copied](/guide/${encodeURI(decomposed)}) [md](./café.md) [md2](./${decomposed}.md#hours)\n`);
    const run = runDocs(['build'], { cwd: root });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/broken link|no markdown file|has no heading/);
    // One folder, named by the composed bytes a host is asked for.
    expect(readdirSync(join(dist, 'guide')).filter((name) => name.normalize('NFC') === 'café')).toEqual(['caf\u00e9']);
    const faq = readRoute(dist, '/guide/faq');
    expect(faq).toContain('href="/guide/caf%C3%A9#hours"');
    expect(faq).not.toContain('%CC%81');
    expect((JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8')) as { routes: { path: string }[] }).routes.map((route) => route.path)).toContain('/guide/caf\u00e9');
  });

  it('finds images, linked files, ids and heading anchors written with accents in the other form than their files and headings', () => {
    const { root, dist } = site();
    const guide = join(root, 'content/guide');
    // Saved on a Mac (decomposed): a folder with an image, a linked file, and a page whose heading was typed decomposed too.
    mkdirSync(join(guide, 'cafe\u0301s'));
    writeFileSync(join(guide, 'cafe\u0301s/pic.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><rect width="4" height="4"/></svg>');
    writeFileSync(join(guide, 're\u0301sume\u0301.pdf'), '%PDF-1.4 a curriculum');
    writeFileSync(join(guide, 'cafe\u0301.md'), '---\ntitle: Café\n---\n\n## Re\u0301glage\n\nTurn the grinder.\n');
    // Typed on a keyboard (composed).
    appendFileSync(join(guide, 'faq.md'), '\n![pic](./caf\u00e9s/pic.svg) [cv](./r\u00e9sum\u00e9.pdf) [grind](/guide/caf\u00e9#r\u00e9glage) [md](./cafe\u0301.md#re\u0301glage)\n');
    writeFileSync(join(guide, 'zebra.md'), readFileSync(join(guide, 'zebra.md'), 'utf8').replace(/^---\n/, '---\npagination_next: guide/caf\u00e9\n'));
    const run = runDocs(['build'], { cwd: root });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/does not exist|has no heading|no page's id/);
    const faq = readRoute(dist, '/guide/faq');
    expect(faq).toMatch(/src="\/assets\/images\/pic\.[0-9a-f]{8}\.svg"/);
    expect(faq).toMatch(/href="\/assets\/files\/r%C3%A9sum%C3%A9\.[0-9a-f]{8}\.pdf"/);
    // One id, composed, and every link to it composed: a browser matches a fragment by its exact characters.
    expect(readRoute(dist, '/guide/caf\u00e9')).toContain('id="r\u00e9glage"');
    expect(faq).toContain('href="/guide/caf%C3%A9#r%C3%A9glage"');
    expect(faq).not.toContain('%CC%81');
    expect(readRoute(dist, '/guide/zebra')).toContain('<a class="pagination-link pagination-next" href="/guide/caf\u00e9" rel="next">');
  });

  it('copies local files that links name with a content hash, and fails on a missing one', () => {
    const { root, dist, output } = site();
    mkdirSync(join(root, 'content/guide/files'));
    writeFileSync(join(root, 'content/guide/files/report 2025.pdf'), '%PDF-1.7 quarterly report');
    writeFileSync(join(root, 'content/guide/files/data.csv'), 'a,b\n1,2\n');
    writeFileSync(join(root, 'content/guide/files/café menu.zip'), 'PK menu');
    appendFileSync(join(root, 'content/guide/faq.md'), '\n[report](./files/report%202025.pdf) and [data](files/data.csv?download=1) and [menu](<./files/café menu.zip>)\n');
    const run = runDocs(['build'], { cwd: root });
    expect(run.code, run.stderr).toBe(0);
    const faq = readRoute(dist, '/guide/faq');
    const report = /href="\/(assets\/files\/report-2025\.[0-9a-f]{8}\.pdf)"/.exec(faq)?.[1];
    expect(report, faq).toBeDefined();
    expect(readFileSync(join(dist, report!), 'utf8')).toBe('%PDF-1.7 quarterly report');
    expect(faq).toMatch(/href="\/assets\/files\/data\.[0-9a-f]{8}\.csv\?download=1"/);
    // Letters of any script stay in the name (they were cut to `caf-menu`).
    const menu = /href="\/(assets\/files\/caf%C3%A9-menu\.[0-9a-f]{8}\.zip)"/.exec(faq)?.[1];
    expect(menu, faq).toBeDefined();
    expect(readFileSync(join(dist, decodeURIComponent(menu!)), 'utf8')).toBe('PK menu');
    const rebuilt = snapshotTree(dist);
    appendFileSync(join(root, 'content/guide/faq.md'), '\n[missing](./files/missing.pdf)\n');
    expectRefused(runDocs(['build'], { cwd: root }), 1, /content\/guide\/faq\.md:\d+:1: link to "\.\/files\/missing\.pdf": the file content\/guide\/files\/missing\.pdf does not exist/);
    expect(snapshotTree(dist)).toEqual(rebuilt);
    // There, but nothing a build can copy: each says what it is, not "does not exist".
    writeFileSync(join(root, 'content/guide/faq.md'), readFileSync(join(root, 'content/guide/faq.md'), 'utf8').replace('[missing](./files/missing.pdf)', '[stream](./files/stream.csv) and ![shot](./files/shot.png)'));
    expect(spawnSync('mkfifo', [join(root, 'content/guide/files/stream.csv')]).status).toBe(0);
    mkdirSync(join(root, 'content/guide/files/shot.png'));
    expectRefused(
      runDocs(['build'], { cwd: root, timeout: 60_000 }),
      1,
      /link to "\.\/files\/stream\.csv": content\/guide\/files\/stream\.csv is not a regular file \(a pipe, a socket or a device\)/,
      /image "\.\/files\/shot\.png": content\/guide\/files\/shot\.png is a folder, not a file/,
    );
    expect(snapshotTree(dist)).toEqual(rebuilt);
    expect(output.size).toBeLessThan(rebuilt.size);
  });

  it('names a sidebar folder that does not exist as a config error, exit 2', () => {
    const { root, dist, output } = site();
    writeFileSync(join(root, 'site.config.ts'), "import { fixtureConfig } from '../_shared/config';\nexport default fixtureConfig({ sidebars: [{ id: 'home', label: 'Home', dir: 'home' }, { id: 'guide', label: 'Guide', dir: 'guide' }, { id: 'ops', label: 'Ops', dir: 'operations' }] });\n");
    expectRefused(runDocs(['build'], { cwd: root }), 2, 'site.config.ts#/sidebars/2/dir: `sidebars[2].dir` names the folder "operations", which does not exist in content/', 'fix: create the folder, or use one that exists: guide, home');
    writeFileSync(join(root, 'site.config.ts'), "import { fixtureConfig } from '../_shared/config';\nexport default fixtureConfig({ sidebars: [{ id: 'home', label: 'Home', dir: 'home' }, { id: 'guide', label: 'Guide', dir: '../guide' }] });\n");
    expectRefused(runDocs(['build'], { cwd: root }), 2, '`sidebars[1].dir` "../guide" is not a folder below the content folder');
    expect(snapshotTree(dist)).toEqual(output);
  });

  it('removes every link target whose scheme is not http, https, mailto or tel, on pages with and without raw HTML, warning with the line', () => {
    const { root, dist } = site();
    writeFileSync(join(root, 'content/guide/zebra.md'), '# Zebra\n\n[a](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) [b](vbscript:msgbox) [c](JaVaScRiPt:alert(1)) [d](java\tscript:alert(1))\n\n[ok](https://quad.example) [mail](mailto:it@quad.example) [call](tel:+3292646000) [file](file:///etc/passwd)\n\n[ref]: vbscript:evil\n\nSee [ref].\n');
    writeFileSync(join(root, 'content/guide/install.md'), '# Install\n\n<a href="data:text/html,x">raw data</a> <a href="tel:+32">raw tel</a> [md](vbscript:x)\n');
    const run = runDocs(['build'], { cwd: root });
    expect(run.code, run.stderr).toBe(0);
    for (const [place, scheme] of [['zebra.md:3:1', 'data'], ['zebra.md:3:', 'vbscript'], ['zebra.md:3:', 'javascript'], ['zebra.md:5:', 'file'], ['zebra.md:9:', 'vbscript'], ['install.md:3:', 'data'], ['install.md:3:', 'vbscript']] as const) {
      expect(run.stderr).toMatch(new RegExp(`warning content/guide/${place.replace(/\./g, '\\.')}\\d*: removed the link target "[^"]*": the scheme "${scheme}:" is not allowed on a page`));
    }
    for (const route of ['/guide/zebra', '/guide/install']) {
      const html = readRoute(dist, route).split('<main')[1] ?? '';
      expect(html).not.toMatch(/href="\s*(data|vbscript|javascript|java\s+script|file):/i);
    }
    expect(readRoute(dist, '/guide/zebra')).toContain('href="tel:+3292646000"');
    expect(readRoute(dist, '/guide/install')).toContain('href="tel:+32"');
  });
});

describe('docs build keeps API code samples whole', () => {
  it('builds a spec whose examples hold code fences, directive markers and quotes into exactly four sample tabs', () => {
    const { root, dist } = site();
    mkdirSync(join(root, 'specs'));
    const nasty = 'text\n```\n:::\n~~~ `#{x}` ${y} $(z) \'"\\';
    writeFileSync(
      join(root, 'specs/nasty.json'),
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'Nasty', version: '1.0.0' },
        servers: [{ url: 'https://api.quad.example' }],
        paths: { '/notes': { post: { operationId: 'createNote', summary: 'Create a note', requestBody: { content: { 'application/json': { example: { note: nasty } } } }, responses: { '200': { description: 'OK', content: { 'application/json': { example: { echo: nasty } } } } } } } },
      }),
    );
    writeFileSync(join(root, 'site.config.ts'), "import { fixtureConfig } from '../_shared/config';\nexport default fixtureConfig({ openapi: [{ file: 'specs/nasty.json', route: '/guide/api', sidebar: 'guide' }] });\n");
    const run = runDocs(['build'], { cwd: root });
    expect(run.code, run.stderr).toBe(0);
    const html = readRoute(dist, '/guide/api/create-note');
    expect(html.match(/role="tab"/g)?.length).toBe(4);
    expect(html).not.toContain('Tab 3');
    expect(html).not.toMatch(/class="admonition/);
  });
});
