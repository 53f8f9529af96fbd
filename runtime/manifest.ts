/**
 * The contract between `docs build` (cli/) and the browser runtime (runtime/).
 * Types only: the cli imports it with `import type`, the runtime reads the JSON it describes.
 */

/** A link to one page in a sidebar. */
export interface SidebarDocItem {
  type: 'doc';
  /** Text shown in the sidebar (`sidebar_label`, else the page title). */
  label: string;
  /** Route of the page, e.g. `/backend/onboarding/git`. */
  route: string;
  /** Extra classes of the link (`sidebar_class_name`), e.g. `api-method api-method-post` for a method badge. */
  className?: string;
}

/** A folder of the content tree, shown expanded (categories never collapse). */
export interface SidebarCategoryItem {
  type: 'category';
  /** From `_category_.json` `label`, else the folder's `index.md` title, else the folder name. */
  label: string;
  /** Route of the folder's own `index.md`, when it has one. */
  route?: string;
  /** Children, ordered by position then name. */
  items: SidebarItem[];
}

/** One entry of a sidebar tree. */
export type SidebarItem = SidebarDocItem | SidebarCategoryItem;

/** A heading listed in a page's table of contents. */
export interface TocEntry {
  /** The heading's id (its `#anchor`). */
  id: string;
  /** Plain text of the heading. */
  text: string;
  /** Heading level, within the configured TOC range (2–3 by default). */
  level: number;
}

/** A link to a neighbouring page (previous/next, breadcrumbs). */
export interface PageLink {
  /** Route of the target page. */
  route: string;
  /** Text of the link. */
  label: string;
}

/** When and by whom a page's source was last changed. */
export interface LastUpdated {
  /** Commit author; absent when the file is not tracked by git. */
  author?: string;
  /** Milliseconds since the epoch (commit time, or the file's mtime when untracked). */
  timestamp: number;
}

/** Everything the layout needs to show one page, besides its body. */
export interface PageMeta {
  /** Route of the page, e.g. `/` or `/backend/onboarding`. */
  route: string;
  /** Doc id: source path below `content/` without `.md`. Empty for the not-found page. */
  id: string;
  /** Page title, shown as h1 (unless `heading`) and in `<title>`. */
  title: string;
  /**
   * The h1 the body opened with, as HTML, when it is not the title as plain text: it holds markup
   * (`# The \`docs\` CLI`), or the frontmatter `title` says something else (which stays the `<title>`
   * and the sidebar label, as in Docusaurus). The page shows it as its h1.
   */
  heading?: string;
  /** Meta description. */
  description?: string;
  /** Id of the sidebar shown beside the page; absent on the not-found page. */
  sidebar?: string;
  /** Table of contents (already filtered to the configured levels). */
  toc: TocEntry[];
  /** True when frontmatter `hide_table_of_contents` is set. */
  hideToc: boolean;
  /** True when frontmatter `hide_title` is set: no h1 from `title` (a `heading` still shows). */
  hideTitle?: boolean;
  /** Link to edit the source in the repository. */
  editUrl?: string;
  lastUpdated?: LastUpdated;
  /** Ancestor categories, outermost first. */
  breadcrumbs: PageLink[];
  prev?: PageLink;
  next?: PageLink;
  /** True when the body holds a mermaid diagram, so the runtime loads the diagram chunk. */
  hasMermaid: boolean;
  /** True when the body holds a tab set (API code samples), so the runtime loads the tabs island. */
  hasTabs: boolean;
  /** Set on the not-found page. */
  notFound?: boolean;
}

/** A page's data, as carried by its data chunk. */
export interface PageData extends PageMeta {
  /** Pre-rendered HTML of the page body. */
  html: string;
}

/**
 * A page's data chunk (`/assets/pages/<slug>.<hash>.js`): an ES module whose default export is the
 * page's data, loaded with `import()` for client-side navigation.
 */
export interface PageModule {
  default: PageData;
}

/** One route of the site, as listed in `manifest.json`. */
export interface RouteEntry {
  /** Route path, e.g. `/backend/onboarding`. */
  path: string;
  /** Doc id (source path below `content/` without `.md`). */
  id: string;
  /** Id of the sidebar the page belongs to. */
  sidebar: string;
  /** Page title. */
  title: string;
  /** URL of the page's data chunk (an ES module, see `PageModule`). */
  data: string;
  /** True when the page holds a mermaid diagram: the diagram chunk is preloaded before it is shown. */
  mermaid: boolean;
}

/** The docs version (the site has exactly one). */
export interface VersionInfo {
  /** Internal name, e.g. `current`. */
  name: string;
  /** Label shown in the version dropdown, e.g. `Next`. */
  label: string;
  /** True for the latest version. */
  isLast: boolean;
  /** Base path of the version, e.g. `/`. */
  path: string;
  /** Id of the doc served at the base path. */
  mainDocId: string;
}

/** `dist/manifest.json`: routes and sidebars, fetched by the runtime after hydration. */
export interface Manifest {
  version: VersionInfo;
  /** The site's single locale, e.g. `en-GB`. */
  locale: string;
  routes: RouteEntry[];
  /** Sidebar trees by sidebar id. */
  sidebars: Record<string, SidebarItem[]>;
}

/** A navbar entry. */
export interface NavItem {
  label: string;
  /** Route the item links to; it is active for every route in the same section. */
  to: string;
}

/** The announcement bar above the navbar. */
export interface Announcement {
  /** Dismissal is remembered per id; a new id shows the bar again. */
  id: string;
  /** Inline HTML (links allowed). */
  content: string;
  backgroundColor: string;
  textColor: string;
  isCloseable: boolean;
}

/** The application configuration of the product (spec §3). */
export interface AppConfig {
  platform: string;
  version: string;
  build: number;
  production: boolean;
  loginPath: string;
  logoutPath: string;
  basePath: string;
  buttons: { logout: string; login: string };
  analyticsKey: string;
  /** Backend base address, e.g. `https://api.quad.example`. */
  backendUrl: string;
  frontendUrl: string;
}

/** Site-wide settings the runtime needs, embedded once in every page. */
export interface SiteData {
  title: string;
  tagline: string;
  brand: string;
  /** Separator between page and site title in `<title>`, e.g. `|`. */
  titleSeparator: string;
  locale: string;
  /** Label of the one locale in the locale dropdown, e.g. `English (en-GB)`. */
  localeLabel: string;
  version: VersionInfo;
  navbar: NavItem[];
  repositoryUrl: string;
  copyright: string;
  announcement?: Announcement;
  app: AppConfig;
  auth: {
    /** Roles that admit a user. */
    roles: string[];
    /** localStorage key of the credentials store. */
    storageKey: string;
    loginHeading: string;
    loginButton: string;
    supportEmail: string;
  };
  /** localStorage keys used by the runtime. */
  storageKeys: { theme: string; announcement: string; version: string; codeTab: string };
  /**
   * True for a build served behind the gated host (`docs build --gate`): the login goes to this
   * origin, which sets the session cookie, and the page reloads so the host can send the real page.
   */
  gated?: boolean;
}

/**
 * The JSON embedded in every page (`<script id="__DOCS_DATA__">`) for hydration. The sidebar tree is
 * not in it: the runtime hydrates the sidebar from its pre-rendered HTML, so page weight does not grow
 * with the size of a section.
 */
export interface HydrationData {
  site: SiteData;
  page: PageMeta;
  /** URL of `manifest.json`. */
  manifestUrl: string;
  /** Set on the gated host's sign-in shell, which holds no page: whatever credentials are stored are stale. */
  shell?: boolean;
}
