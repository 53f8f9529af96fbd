import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../../cli/build/config';
import { DocsError } from '../../../../cli/util/errors';
import { fixtureConfig } from '../../../fixtures/_shared/config';

const options = { root: '/site', configFile: 'site.config.ts' };

function problems(raw: unknown): string[] {
  try {
    resolveConfig(raw, options);
  } catch (error) {
    if (error instanceof DocsError) return error.diagnostics.map((d) => `${d.message}${d.fix ? ` | ${d.fix}` : ''}`);
    throw error;
  }
  return [];
}

describe('cli/build/config', () => {
  it('fills defaults: en-GB, version Next, separator |, TOC 2–3, dark code theme', () => {
    const config = resolveConfig(fixtureConfig({ locale: undefined, version: undefined, titleSeparator: undefined, markdown: undefined }), options);
    expect(config.site.locale).toBe('en-GB');
    expect(config.site.version).toMatchObject({ name: 'current', label: 'Next', isLast: true, path: '/' });
    expect(config.site.titleSeparator).toBe('|');
    expect(config.markdown.toc).toEqual({ minLevel: 2, maxLevel: 3 });
    expect(config.contentDir).toBe('/site/content');
  });

  it('takes the locales a date formatter takes, and refuses the tags it refuses', () => {
    for (const locale of ['nl-BE', 'en', 'en-GB-oxendict', 'xx-YY', 'zh-Hant-TW', 'nl_BE', 'not a locale', 'i-klingon', 'en--GB']) {
      let formatter = true;
      try {
        new Intl.DateTimeFormat(locale);
      } catch {
        formatter = false;
      }
      const refused = problems(fixtureConfig({ locale })).some((problem) => problem.includes('is not a locale'));
      expect(refused, locale).toBe(!formatter);
    }
  });

  it('lets DOCS_BACKEND_URL override the backend address', () => {
    const config = resolveConfig(fixtureConfig(), { ...options, env: { DOCS_BACKEND_URL: 'http://127.0.0.1:4010' } });
    expect(config.site.app.backendUrl).toBe('http://127.0.0.1:4010');
    expect(resolveConfig(fixtureConfig(), options).site.app.backendUrl).toBe('https://api.quad.example');
  });

  it('names every missing, misspelt or mistyped key with its path', () => {
    const raw = { ...fixtureConfig(), titel: 'Docs', app: { ...fixtureConfig().app, build: '1' } } as Record<string, unknown>;
    delete raw.footer;
    expect(problems(raw)).toEqual([
      '`titel` is not a known key | did you mean `title`?',
      '`footer` is missing (expected an object) | add `footer`: { copyright: "Copyright © 2025 …" }',
      '`app.build` must be an integer, got the string "1" | write an integer there',
    ]);
  });

  it('takes a colour alone for the announcement, never more CSS after it', () => {
    const announcement = (backgroundColor: string, textColor = '#ffffff') => fixtureConfig({ announcement: { id: 'race', content: 'Race day', backgroundColor, textColor, isCloseable: true } });
    for (const colour of ['navy', '#1f4e8c', '#fff', 'rgb(30 58 95)', 'rgba(30, 58, 95, 0.9)', 'hsl(210 52% 25%)', 'oklch(45% 0.1 250)']) expect(problems(announcement(colour)), colour).toEqual([]);
    expect(problems(announcement('red;background-image:url(https://evil.example/t.png)', 'white; position: fixed'))).toEqual([
      '`announcement.backgroundColor` "red;background-image:url(https://evil.example/t.png)" is not a CSS colour | write a colour alone: a name (e.g. "navy"), "#1e3a5f", "rgb(30 58 95)" or "hsl(210 52% 25%)"',
      '`announcement.textColor` "white; position: fixed" is not a CSS colour | write a colour alone: a name (e.g. "navy"), "#1e3a5f", "rgb(30 58 95)" or "hsl(210 52% 25%)"',
    ]);
  });

  it('takes a logout path only as an absolute path of its own, the one the gate ends sessions at', () => {
    const logout = (logoutPath: string) => fixtureConfig({ app: { ...fixtureConfig().app, logoutPath } });
    for (const path of ['/logout', '/auth/sign-out', '/api/logout']) expect(problems(logout(path)), path).toEqual([]);
    for (const path of ['logout', './logout', '/', '//evil.example/logout', '/logout?next=/', '/log out', '/api/login', 'https://quad.example/logout', '/assets/logout']) {
      expect(problems(logout(path)), path).toEqual([`\`app.logoutPath\` "${path}" is not a path of its own on the site's origin | write an absolute path, starting with "/", with no query or fragment, other than /api/login, e.g. "/logout"`]);
    }
  });

  it('takes addresses the pages link to or call only as web addresses: never a javascript: link, a host-less backend, a navbar route to another site', () => {
    const base = fixtureConfig();
    const raw = fixtureConfig({
      repository: { url: 'javascript:alert(document.cookie)', editUrl: 'git.quad.example/edit/' },
      app: { ...base.app, backendUrl: 'api.quad.example', frontendUrl: 'https://' },
      navbar: [{ label: 'Evil', to: '//evil.example/phish' }, { label: 'Evil too', to: '/\\evil.example/phish' }, { label: 'Fine', to: '/backend' }, { label: 'Also fine', to: 'https://status.quad.example' }],
    });
    expect(problems(raw)).toEqual([
      '`navbar[0].to` "//evil.example/phish" is neither a route nor an URL | write it as a route starting with one "/", e.g. "/evil.example/phish", or as an https:// address',
      '`navbar[1].to` "/\\evil.example/phish" is neither a route nor an URL | write it as a route starting with one "/", e.g. "/evil.example/phish", or as an https:// address',
      '`repository.url` "javascript:alert(document.cookie)" is not an http(s) address | write a full address, e.g. "https://github.com/quad/docs"',
      '`repository.editUrl` "git.quad.example/edit/" is not an http(s) address | write a full address, e.g. "https://github.com/quad/docs"',
      '`app.frontendUrl` "https://" is not an http(s) address | write a full address, e.g. "https://github.com/quad/docs"',
      '`app.backendUrl` "api.quad.example" is not the address of a backend: every login would go nowhere | write an http(s) address, e.g. "https://api.quad.example" (or "/" for the site\'s own origin)',
    ]);
    expect(() => resolveConfig(fixtureConfig(), { ...options, env: { DOCS_BACKEND_URL: 'localhost:4010' } })).toThrow('"localhost:4010" is not the address of a backend');
    expect(resolveConfig(fixtureConfig(), { ...options, env: { DOCS_BACKEND_URL: '/' } }).site.app.backendUrl).toBe('/');
  });

  it('checks references between keys: unique sidebar ids and folders, navbar routes, TOC range', () => {
    const raw = fixtureConfig({
      sidebars: [
        { id: 'a', label: 'A', dir: 'a' },
        { id: 'a', label: 'B', dir: 'b' },
        // Two sidebars on one folder: the second was empty, in silence.
        { id: 'c', label: 'C', dir: 'a/' },
      ],
      navbar: [{ label: 'Bad', to: 'backend' }],
      markdown: { toc: { minLevel: 4, maxLevel: 2 } },
    });
    expect(problems(raw)).toEqual([
      '`sidebars[1].id` repeats the sidebar id "a" | give every sidebar its own id',
      '`sidebars[2].dir` "a/" is the folder of the sidebar "a" already, so this one would be empty | give the sidebar "c" a folder of its own, or remove it',
      '`markdown.toc` levels 4–2 are not a range within 1–6 | use { minLevel: 2, maxLevel: 3 }',
      '`navbar[0].to` "backend" is neither a route nor an URL | write it as a route starting with one "/", e.g. "/backend", or as an https:// address',
    ]);
  });
});
