// A generated docs site for the benchmarks: ../shared/bench/gen-corpus.mjs's content below
// bench/.corpus/<pages>/content, and a site.config.ts with one sidebar per top-level folder.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Generates the corpus of `pages` pages and returns its site folder. The generator is deterministic, so
 * a corpus generated completely before (its `.complete` marker written last) is used as it is: at
 * 100,000 pages generating it takes minutes.
 */
export function writeCorpusSite(root, pages) {
  const generator = [join(root, '../shared/bench/gen-corpus.mjs'), join(root, 'bench/gen-corpus.mjs')].find(existsSync);
  if (!generator) {
    console.error('bench: ../shared/bench/gen-corpus.mjs not found');
    process.exit(2);
  }

  const site = join(root, 'bench', '.corpus', String(pages));
  if (existsSync(join(site, '.complete'))) return site;
  rmSync(site, { recursive: true, force: true });
  mkdirSync(site, { recursive: true });
  execFileSync(process.execPath, [generator, '--pages', String(pages), '--out', join(site, 'content')], { stdio: 'ignore' });
  const sections = readdirSync(join(site, 'content')).filter((name) => statSync(join(site, 'content', name)).isDirectory()).sort();
  writeFileSync(
    join(site, 'site.config.ts'),
    `import { defineConfig } from 'docs';
  export default defineConfig({
    title: 'Docs', tagline: 'Benchmark corpus', brand: 'Quad', product: 'quad',
    repository: { url: 'https://git.quad.example/quad/docs', editUrl: 'https://git.quad.example/quad/docs/edit/master/content/' },
    navbar: [{ label: 'Home', to: '/' }],
    footer: { copyright: 'Copyright © 2025 Quad' },
    sidebars: [{ id: 'home', label: 'Home', dir: '.' }, ${sections.map((name) => `{ id: ${JSON.stringify(name)}, label: ${JSON.stringify(name)}, dir: ${JSON.stringify(name)} }`).join(', ')}],
    homepage: { doc: 'index' },
    app: { platform: 'WEB', version: '4.0.0', build: 1, production: true, loginPath: '/login', logoutPath: '/logout', basePath: '/',
      buttons: { logout: 'Logout', login: 'Login' }, analyticsKey: 'bench', backendUrl: 'https://api.quad.example', frontendUrl: 'https://quad.example' },
    auth: { roles: ['admin', 'quad_member'], loginHeading: 'Log in', loginButton: 'Log in', supportEmail: 'it@quad.example' },
    markdown: { highlightLanguages: ['ruby', 'json', 'bash'] },
  });
  `,
  );

  writeFileSync(join(site, '.complete'), '');
  return site;
}
