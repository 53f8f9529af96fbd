/**
 * The inline `<head>` script: runs before first paint, so the chosen colour mode, a dismissed
 * announcement and the signed-in state never flash. It is serialised into every page, so it must stay
 * self-contained; the admission rule is passed in as the very function the runtime uses.
 */
import type { Credentials } from './auth/credentials';

/** The storage keys and values the head script needs. */
export interface HeadScriptOptions {
  themeKey: string;
  announcementKey: string;
  /** Id of the current announcement, if any. */
  announcementId?: string;
  /** localStorage key of the remembered code-sample tab. */
  codeTabKey: string;
  /** localStorage key of the credentials store. */
  authKey: string;
  /** Roles that admit a reader. */
  roles: string[];
  /** The site's title: the tab shows it alone while the login screen hides the page (runtime/title.ts). */
  siteTitle: string;
}

/**
 * Runs in the browser before paint: `data-theme` (dark unless light is stored; the system preference
 * is ignored, spec §2), `data-announcement-dismissed`, `data-code-tab` (the remembered code-sample
 * language), and `data-auth` (`in` or `out`), which the
 * stylesheet uses to hide the pre-rendered page from a signed-out reader.
 */
export function applyBeforePaint(options: HeadScriptOptions, admits: (credentials: Partial<Credentials> | null, roles: string[]) => boolean): void {
  const root = document.documentElement;
  let signedIn = false;
  try {
    root.setAttribute('data-theme', localStorage.getItem(options.themeKey) === 'light' ? 'light' : 'dark');
    if (options.announcementId !== undefined && localStorage.getItem(options.announcementKey) === options.announcementId) {
      root.setAttribute('data-announcement-dismissed', '');
    }
    const tab = localStorage.getItem(options.codeTabKey);
    if (tab) root.setAttribute('data-code-tab', tab);
    const stored = JSON.parse(localStorage.getItem(options.authKey) || 'null') as { state?: Partial<Credentials>; version?: number } | null;
    // The gated host's sign-in shell holds no page: stored credentials there are stale.
    signedIn = !root.hasAttribute('data-gate-shell') && !!stored && stored.version === 0 && admits(stored.state ?? null, options.roles);
  } catch {
    root.setAttribute('data-theme', 'dark');
  }
  root.setAttribute('data-auth', signedIn ? 'in' : 'out');
  if (!signedIn) document.title = options.siteTitle;
}

/**
 * The global name the head script's bundle passes for the options (`cli/build/bundle.ts` bundles
 * `applyBeforePaint(HEAD_SCRIPT_OPTIONS, isAuthenticated)`, minified, once per runtime bundle).
 * Bundling it on its own, rather than serialising the function with `toString()`, gives every page the
 * same bytes whichever bundle renders it: each bundle renames local variables its own way (`root`
 * became `root7` in one), so a page rendered on the main thread differed from one rendered on a worker.
 */
export const HEAD_SCRIPT_OPTIONS = '__DOCS_HEAD_OPTIONS__';

/** The script's source: the bundled script with the site's options in place. */
export function headScriptSource(script: string, options: HeadScriptOptions): string {
  // `<` escaped: a key can never close the script element.
  return script.replace(HEAD_SCRIPT_OPTIONS, () => JSON.stringify(options).replace(/</g, '\\u003c'));
}
