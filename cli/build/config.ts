/**
 * Stage 1, config: the typed `site.config.ts` contract, its validator and its defaults.
 * `resolveConfig` is the only reader of raw config; everything else gets a `ResolvedConfig`.
 */
import { isWebAddress } from '../util/web-address';
import type { Announcement, AppConfig, NavItem, SiteData, VersionInfo } from '../../runtime/manifest';
import { DocsError } from '../util/errors';
import { s, validateShape, type Shape } from '../util/validate';
import { routeProblem } from './routes';

/** A sidebar and the content folder its pages come from. */
export interface SidebarConfig {
  /** Sidebar id, e.g. `backend`. */
  id: string;
  /** Human label of the section. */
  label: string;
  /** Folder below the content folder; `.` for the content root. A page belongs to the sidebar with the longest matching folder. */
  dir: string;
}

/** An OpenAPI specification to generate reference pages from (see the OpenAPI issue). */
export interface OpenApiConfig {
  /** Path of the spec file, relative to the site root. */
  file: string;
  /** Route base of the generated pages, e.g. `/backend/api/user-authentication`. */
  route: string;
  /** Sidebar the pages are listed in. */
  sidebar: string;
  /** Slug of the info page below `route`; empty means the info page sits at `route` itself. @default '' */
  infoSlug?: string;
}

/** What `site.config.ts` default-exports (through `defineConfig`). */
export interface UserConfig {
  /** Site title, after the separator in `<title>`. @example 'Docs' */
  title: string;
  /** Tagline under the title. @example 'Documentation for Quad' */
  tagline: string;
  /** Brand shown in texts, e.g. `Quad`. */
  brand: string;
  /** Product slug, e.g. `quad` (role `quad_member`, header `X-Quad-Version`). */
  product: string;
  /** The one locale. @default 'en-GB' */
  locale?: string;
  /** Label of the locale in the dropdown. @default 'English (en-GB)' */
  localeLabel?: string;
  /** The one docs version. @default { name: 'current', label: 'Next' } */
  version?: { name?: string; label: string };
  /** Folder of the markdown tree, relative to the site root. @default 'content' */
  contentDir?: string;
  /** Source repository: the navbar link and the base of edit links. */
  repository: {
    /** @example 'https://git.quad.example/quad/docs' */
    url: string;
    /** Prefix an edit link puts before the file path below the content folder. @example 'https://git.quad.example/quad/docs/edit/master/content/' */
    editUrl: string;
  };
  /** Navbar items, in order. */
  navbar: NavItem[];
  footer: {
    /** @example 'Copyright © 2025 Quad' */
    copyright: string;
  };
  /** The sidebars and the folders they draw from. */
  sidebars: SidebarConfig[];
  /** The default doc, served at `/` with its sidebar. @example { doc: 'internal-wiki/index' } */
  homepage?: { doc: string };
  announcement?: Announcement;
  /** Application configuration (spec §3); `backendUrl` is overridden by `DOCS_BACKEND_URL`. */
  app: AppConfig;
  /** The login gate. */
  auth: {
    /** Roles that admit a user. @example ['admin', 'quad_member'] */
    roles: string[];
    /** @example 'Log in to Quad Docs' */
    loginHeading: string;
    /** @example 'Log in with your Quad account' */
    loginButton: string;
    /** Contact address shown in the network error. */
    supportEmail: string;
    /** localStorage key of the credentials store. @default 'docs-auth' */
    storageKey?: string;
  };
  markdown?: {
    /** Languages always loaded in the highlighter, besides every fence language used. @default [] */
    highlightLanguages?: string[];
    /** Heading levels in the table of contents. @default { minLevel: 2, maxLevel: 3 } */
    toc?: { minLevel: number; maxLevel: number };
    /** Shiki theme of code blocks (dark in both colour modes). @default 'github-dark' */
    codeTheme?: string;
  };
  /** Separator in `<title>`. @default '|' */
  titleSeparator?: string;
  /** OpenAPI specifications. @default [] */
  openapi?: OpenApiConfig[];
  /**
   * Build for the gated host (`docs serve --dist OUT --gate`): logins go to the site's own origin, and
   * the output holds the sign-in shell. `docs build --gate` sets it too. @default false
   */
  gate?: boolean;
}

/** Identity function that gives `site.config.ts` its types. */
export function defineConfig(config: UserConfig): UserConfig {
  return config;
}

/** The validated config with every default filled in. */
export interface ResolvedConfig {
  /** Absolute site root (the folder of `site.config.ts`). */
  root: string;
  /** Absolute content folder. */
  contentDir: string;
  /** Path of the config file, for messages. */
  configFile: string;
  site: SiteData;
  sidebars: SidebarConfig[];
  homepageDoc?: string;
  editUrl: string;
  markdown: { highlightLanguages: string[]; toc: { minLevel: number; maxLevel: number }; codeTheme: string };
  openapi: OpenApiConfig[];
}

const navItem = s.object({ label: s.string(), to: s.string() });
const configShape: Shape = s.object({
  title: s.string('the site title, e.g. "Docs"'),
  tagline: s.string('e.g. "Documentation for Quad"'),
  brand: s.string('e.g. "Quad"'),
  product: s.string('the product slug, e.g. "quad"'),
  locale: s.optional(s.string()),
  localeLabel: s.optional(s.string()),
  version: s.optional(s.object({ name: s.optional(s.string()), label: s.string() })),
  contentDir: s.optional(s.string()),
  repository: s.object({ url: s.string(), editUrl: s.string() }, '{ url, editUrl }'),
  navbar: s.array(navItem, 'a list of { label, to }'),
  footer: s.object({ copyright: s.string() }, '{ copyright: "Copyright © 2025 …" }'),
  sidebars: s.nonEmptyArray(s.object({ id: s.string(), label: s.string(), dir: s.string() }), 'a list of { id, label, dir }'),
  homepage: s.optional(s.object({ doc: s.string() })),
  announcement: s.optional(
    s.object({ id: s.string(), content: s.string(), backgroundColor: s.string(), textColor: s.string(), isCloseable: s.boolean() }),
  ),
  app: s.object(
    {
      platform: s.string(),
      version: s.string(),
      build: s.integer(),
      production: s.boolean(),
      loginPath: s.string(),
      logoutPath: s.string(),
      basePath: s.string(),
      buttons: s.object({ logout: s.string(), login: s.string() }),
      analyticsKey: s.string(),
      backendUrl: s.string(),
      frontendUrl: s.string(),
    },
    'the application configuration of spec §3',
  ),
  auth: s.object(
    {
      roles: s.nonEmptyArray(s.string()),
      loginHeading: s.string(),
      loginButton: s.string(),
      supportEmail: s.string(),
      storageKey: s.optional(s.string()),
    },
    '{ roles, loginHeading, loginButton, supportEmail }',
  ),
  markdown: s.optional(
    s.object({
      highlightLanguages: s.optional(s.array(s.string())),
      toc: s.optional(s.object({ minLevel: s.integer(), maxLevel: s.integer() })),
      codeTheme: s.optional(s.string()),
    }),
  ),
  titleSeparator: s.optional(s.string()),
  gate: s.optional(s.boolean()),
  openapi: s.optional(
    s.array(s.object({ file: s.string(), route: s.string(), sidebar: s.string(), infoSlug: s.optional({ kind: 'string' }) })),
  ),
});

/** Options of `resolveConfig` besides the raw value. */
export interface ResolveConfigOptions {
  root: string;
  configFile: string;
  /** Environment, for `DOCS_BACKEND_URL`. */
  env?: Record<string, string | undefined>;
}

/**
 * `config` built for the gated host or not: as `gate` says (`--gate`, `--no-gate`), otherwise as the
 * config's own `gate` says.
 */
export function withGate(config: ResolvedConfig, gate: boolean | undefined): ResolvedConfig {
  if (gate === undefined || gate === (config.site.gated === true)) return config;
  const { gated: _gated, ...site } = config.site;
  return { ...config, site: gate ? { ...site, gated: true } : site };
}

/** Validates the raw default export of `site.config.ts` and fills defaults; throws a `DocsError` naming every bad key. */
export function resolveConfig(raw: unknown, options: ResolveConfigOptions): ResolvedConfig {
  const problems = validateShape(raw, configShape);
  const config = raw as UserConfig;
  if (problems.length === 0) problems.push(...checkReferences(config));
  // The backend's address as the build will use it: DOCS_BACKEND_URL in its place, when set.
  const envBackend = options.env?.DOCS_BACKEND_URL;
  if (problems.length === 0 && envBackend && !isBackendAddress(envBackend)) {
    throw new DocsError('usage', [{ file: 'DOCS_BACKEND_URL', message: `"${envBackend}" is not the address of a backend: every login would go nowhere`, fix: 'set it to an http(s) address, e.g. DOCS_BACKEND_URL=https://api.quad.example' }]);
  }
  if (problems.length > 0) {
    throw new DocsError(
      'config',
      problems.map((p) => ({ file: options.configFile, message: `\`${p.path}\` ${p.message}`, fix: p.fix })),
    );
  }
  const contentDir = joinPath(options.root, config.contentDir ?? 'content');
  const version: VersionInfo = {
    name: config.version?.name ?? 'current',
    label: config.version?.label ?? 'Next',
    isLast: true,
    path: config.app.basePath,
    mainDocId: config.homepage?.doc ?? '',
  };
  const storageKey = config.auth.storageKey ?? `${config.product}-docs-auth`;
  return {
    root: options.root,
    contentDir,
    configFile: options.configFile,
    sidebars: config.sidebars,
    // Composed (NFC), as every doc id is (content.ts `pageId`).
    homepageDoc: config.homepage?.doc?.normalize('NFC'),
    editUrl: config.repository.editUrl,
    markdown: {
      highlightLanguages: config.markdown?.highlightLanguages ?? [],
      toc: config.markdown?.toc ?? { minLevel: 2, maxLevel: 3 },
      codeTheme: config.markdown?.codeTheme ?? 'github-dark',
    },
    openapi: config.openapi ?? [],
    site: {
      title: config.title,
      tagline: config.tagline,
      brand: config.brand,
      titleSeparator: config.titleSeparator ?? '|',
      locale: config.locale ?? 'en-GB',
      localeLabel: config.localeLabel ?? `English (${config.locale ?? 'en-GB'})`,
      version,
      navbar: config.navbar,
      repositoryUrl: config.repository.url,
      copyright: config.footer.copyright,
      announcement: config.announcement,
      app: { ...config.app, backendUrl: envBackend && envBackend.length > 0 ? envBackend : config.app.backendUrl },
      auth: {
        roles: config.auth.roles,
        storageKey,
        loginHeading: config.auth.loginHeading,
        loginButton: config.auth.loginButton,
        supportEmail: config.auth.supportEmail,
      },
      ...(config.gate ? { gated: true } : {}),
      storageKeys: {
        theme: `${config.product}-docs-theme`,
        announcement: `${config.product}-docs-announcement`,
        version: `${config.product}-docs-version`,
        codeTab: `${config.product}-docs-code-tab`,
      },
    },
  };
}

/** Cross-field checks that a shape cannot express. */
function checkReferences(config: UserConfig): { path: string; message: string; fix?: string }[] {
  const problems: { path: string; message: string; fix?: string }[] = [];
  if (config.locale !== undefined) {
    try {
      // Dates on every page are written in this locale: a tag that is no locale would fail there. The
      // same check as a DateTimeFormat's (a well-formed tag passes, known or not), without loading the
      // locale data a first formatter of the process loads (15–23 ms of a build's start).
      Intl.getCanonicalLocales(config.locale);
    } catch {
      problems.push({ path: 'locale', message: `"${config.locale}" is not a locale (a BCP 47 language tag)`, fix: 'write it as language-REGION, e.g. "en-GB" or "nl-BE"' });
    }
  }
  const ids = new Set<string>();
  /** Sidebar ids by folder: a folder's pages are in one sidebar, the first that names it. */
  const folders = new Map<string, string>();
  config.sidebars.forEach((sidebar, i) => {
    if (ids.has(sidebar.id)) problems.push({ path: `sidebars[${i}].id`, message: `repeats the sidebar id "${sidebar.id}"`, fix: 'give every sidebar its own id' });
    ids.add(sidebar.id);
    const dir = sidebar.dir.replace(/\/+$/, '').replace(/^\.\//, '') || '.';
    const first = folders.get(dir);
    if (first !== undefined) problems.push({ path: `sidebars[${i}].dir`, message: `"${sidebar.dir}" is the folder of the sidebar "${first}" already, so this one would be empty`, fix: `give the sidebar "${sidebar.id}" a folder of its own, or remove it` });
    else folders.set(dir, sidebar.id);
  });
  const toc = config.markdown?.toc;
  if (toc && (toc.minLevel < 1 || toc.maxLevel > 6 || toc.minLevel > toc.maxLevel)) {
    problems.push({ path: 'markdown.toc', message: `levels ${toc.minLevel}–${toc.maxLevel} are not a range within 1–6`, fix: 'use { minLevel: 2, maxLevel: 3 }' });
  }
  // The announcement's colours go into a style attribute: a colour, and nothing after it (`red;background-image:url(…)`).
  for (const key of ['backgroundColor', 'textColor'] as const) {
    const colour = config.announcement?.[key];
    if (colour !== undefined && !CSS_COLOUR.test(colour.trim())) {
      problems.push({ path: `announcement.${key}`, message: `"${colour}" is not a CSS colour`, fix: 'write a colour alone: a name (e.g. "navy"), "#1e3a5f", "rgb(30 58 95)" or "hsl(210 52% 25%)"' });
    }
  }
  // The gate takes a POST to exactly this path as the logout, and the pages send it there from every
  // route: a relative path would reach another path from each page, and the session would outlive it.
  const logout = config.app.logoutPath;
  if (!/^\/[A-Za-z0-9._~!$&'()*+,;=:@%-][^\s?#\\]*$/.test(logout) || logout.startsWith('//') || logout === '/api/login' || /^\/(assets|__docs)\//.test(logout)) {
    problems.push({ path: 'app.logoutPath', message: `"${logout}" is not a path of its own on the site's origin`, fix: 'write an absolute path, starting with "/", with no query or fragment, other than /api/login, e.g. "/logout"' });
  }
  config.navbar.forEach((item, i) => {
    // `//host/…` and `/\host/…` start like routes and lead to another site.
    if (item.to.startsWith('/') ? /^\/[/\\]|\\/.test(item.to) : !isWebAddress(item.to)) {
      problems.push({ path: `navbar[${i}].to`, message: `"${item.to}" is neither a route nor an URL`, fix: `write it as a route starting with one "/", e.g. "/${item.to.replace(/^[/\\]+/, '')}", or as an https:// address` });
    }
  });
  // Addresses the pages link to or call: a web address, never a `javascript:` link a click would run.
  for (const [path, value] of [['repository.url', config.repository.url], ['repository.editUrl', config.repository.editUrl], ['app.frontendUrl', config.app.frontendUrl]] as const) {
    if (!isWebAddress(value)) problems.push({ path, message: `"${value}" is not an http(s) address`, fix: 'write a full address, e.g. "https://github.com/quad/docs"' });
  }
  if (!isBackendAddress(config.app.backendUrl)) problems.push({ path: 'app.backendUrl', message: `"${config.app.backendUrl}" is not the address of a backend: every login would go nowhere`, fix: 'write an http(s) address, e.g. "https://api.quad.example" (or "/" for the site\'s own origin)' });
  config.sidebars.forEach((sidebar, i) => {
    const dir = sidebar.dir.replace(/\/+$/, '');
    if (dir !== '.' && (dir.startsWith('/') || /\\|\0/.test(dir) || dir.split('/').some((part) => part === '..' || part === '.' || part === ''))) {
      problems.push({ path: `sidebars[${i}].dir`, message: `"${sidebar.dir}" is not a folder below the content folder`, fix: 'write it relative to the content folder without `..`, e.g. "backend" (or "." for the content root)' });
    }
  });
  (config.openapi ?? []).forEach((spec, i) => {
    const problem = routeProblem(spec.route);
    if (problem) problems.push({ path: `openapi[${i}].route`, message: `"${spec.route}" ${problem}`, fix: 'write a route of plain segments, e.g. "/backend/api/users"' });
    if (spec.infoSlug && (spec.infoSlug.includes('/') || routeProblem(`/${spec.infoSlug}`))) {
      problems.push({ path: `openapi[${i}].infoSlug`, message: `"${spec.infoSlug}" is not a single plain path segment`, fix: 'e.g. "overview"' });
    }
    if (!ids.has(spec.sidebar)) problems.push({ path: `openapi[${i}].sidebar`, message: `names the unknown sidebar "${spec.sidebar}"`, fix: `use one of: ${[...ids].join(', ')}` });
    // The pages go below the route's folder, and a page is in the sidebar whose folder holds it.
    const folder = spec.route.replace(/^\/+|\/+$/g, '');
    const dir = config.sidebars.find((sidebar) => sidebar.id === spec.sidebar)?.dir.replace(/^\.\//, '').replace(/\/+$/, '');
    if (!problem && folder === '') {
      problems.push({ path: `openapi[${i}].route`, message: `"${spec.route}" is the site's home: an API reference needs a folder of its own for its pages`, fix: `give it a route below its sidebar's folder, e.g. "/${dir && dir !== '.' ? `${dir}/` : ''}api"` });
    } else if (!problem && dir !== undefined && dir !== '.' && dir !== '' && folder !== dir && !folder.startsWith(`${dir}/`)) {
      problems.push({ path: `openapi[${i}].route`, message: `"${spec.route}" is not below the folder of its sidebar "${spec.sidebar}" (${dir}/), so its pages would be in no sidebar`, fix: `give it a route below /${dir}, e.g. "/${dir}/api", or name the sidebar whose folder holds it` });
    }
  });
  return problems;
}

/** Where logins may go: a web address, or a path of the site's own origin (`/`, as `docs serve` names itself). */
function isBackendAddress(value: string): boolean {
  return isWebAddress(value) || /^\/(?![/\\])[^\s\\]*$/.test(value);
}

/** A CSS colour on its own: a name, a hex colour, or a colour function of numbers, units and separators. */
const CSS_COLOUR = /^(?:[a-zA-Z]+|#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})|(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\([0-9a-z.,%+\-\s/]*\))$/;

function joinPath(root: string, rel: string): string {
  if (rel.startsWith('/')) return rel;
  return `${root.replace(/\/$/, '')}/${rel.replace(/^\.\//, '')}`;
}
