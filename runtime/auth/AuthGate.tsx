import { useCallback, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore, type JSX, type ReactNode } from 'react';
import { snapshot, subscribe } from 'valtio/vanilla';
import type { SiteData } from '../manifest';
import { isAuthenticated } from './credentials';
import { loadLoginScreen } from './load-login';
import { useCode } from '../use-code';
import { scrollToFragment } from '../routing';
import { hidePageTitle } from '../title';
import type { AuthSession } from './session';
import { ProblemBox } from '../components/PageState/PageState';
import './auth-gate.css';
// Imported here, not by the lazy chunk: esbuild would split it into a stylesheet nothing links.
import './LoginScreen/login-screen.css';

/** Where the time of the last reload for a missing login chunk is kept, so that a deployment costs one reload, never a loop. */
const RELOADED_KEY = 'docs-login-chunk-reload';
/** A reload within this long of the last one is not tried again: the chunk is missing for another reason. */
const RELOAD_AGAIN_MS = 30_000;

/**
 * In place of a login screen whose code did not load. Online, the page is loaded in full once (a new
 * deployment: its page names the new chunk); offline, or when that did not help, the reason and Retry.
 */
function LoginUnavailable({ reason }: { reason: string }): JSX.Element {
  const [shown, setShown] = useState(false);
  // Decided once committed (a render React discards must not spend the one reload).
  useEffect(() => {
    try {
      const last = Number(sessionStorage.getItem(RELOADED_KEY)) || 0;
      if (navigator.onLine && Date.now() - last >= RELOAD_AGAIN_MS) {
        sessionStorage.setItem(RELOADED_KEY, String(Date.now()));
        location.reload();
        return;
      }
    } catch {
      // No sessionStorage: no way to know a reload was tried, so none is.
    }
    setShown(true);
  }, []);
  if (!shown) return <AuthSplash />;
  return (
    <div className="auth-splash">
      <ProblemBox heading="The sign-in screen could not be loaded" message={navigator.onLine ? reason : 'This device is offline. Connect to the network, then retry.'} action="Retry" onAction={() => location.reload()} />
    </div>
  );
}

/** The full-screen animated logo shown while the reader's state is being established (spec §2). */
export function AuthSplash(): JSX.Element {
  return (
    <div className="auth-splash" role="status">
      <span className="auth-logo" aria-hidden="true" />
      <span className="sr-only">Loading…</span>
    </div>
  );
}

export interface AuthGateProps {
  site: SiteData;
  session: AuthSession;
  /** The site, shown only to an authenticated reader. */
  children: ReactNode;
}

/**
 * Only an authenticated reader sees any page (spec §6); everyone else gets the login screen in its
 * place. Hydration renders the children exactly as the server did (the stylesheet hides them from a
 * signed-out reader), then the gate decides before the first paint.
 */
export function AuthGate({ site, session, children }: AuthGateProps): JSX.Element {
  // valtio's snapshot of the store, read through React's own store hook: valtio/react's useSnapshot
  // tracks which fields a render read (proxy-compare, 3 KB of the first load) to skip renders, and
  // this component reads every field.
  const state = session.store.state;
  const subscribeToStore = useCallback((changed: () => void) => subscribe(state, changed), [state]);
  const read = useCallback(() => snapshot(state), [state]);
  const credentials = useSyncExternalStore(subscribeToStore, read, read);
  const signedIn = isAuthenticated(credentials, site.auth.roles);
  const [decided, setDecided] = useState(false);
  // The login screen is a chunk of its own, asked for once the reader is known to be signed out and
  // shown the moment it is in: signed-in readers, most page loads, never download it. A chunk that does
  // not come (offline; a tab left open across a deployment, which replaced its hashed name, then signed
  // out) is said so, with a way on, instead of an empty page.
  const login = useCode(loadLoginScreen, decided && !signedIn);

  useLayoutEffect(() => setDecided(true), []);
  useLayoutEffect(() => {
    document.documentElement.setAttribute('data-auth', signedIn ? 'in' : 'out');
    hidePageTitle(!signedIn, site.title);
  }, [signedIn, site.title]);
  // Signed in from the login screen (the page shown by the effect above): the section the URL names, as a link to it promised.
  const loginShown = useRef(false);
  useLayoutEffect(() => {
    if (!decided) return;
    if (!signedIn) loginShown.current = true;
    else if (loginShown.current) {
      loginShown.current = false;
      if (location.hash) scrollToFragment(location.hash);
    }
  }, [decided, signedIn]);

  useEffect(() => {
    // Another tab signed in or out: follow it.
    const onStorage = (event: StorageEvent): void => {
      if (event.key === site.auth.storageKey || event.key === null) session.store.reload();
    };
    const onClick = (event: MouseEvent): void => {
      if (event.target instanceof Element && event.target.closest('[data-logout]')) session.logOut();
    };
    addEventListener('storage', onStorage);
    document.addEventListener('click', onClick);
    return () => {
      removeEventListener('storage', onStorage);
      document.removeEventListener('click', onClick);
    };
  }, [session, site]);

  // Behind the gate, a sign-in shell holds no page (its layout is the not-found one): signed in, here
  // or in another tab, the reader gets the page from the host, which now has the session's cookie.
  const shell = decided && document.documentElement.hasAttribute('data-gate-shell');
  useLayoutEffect(() => {
    if (shell && signedIn) location.reload();
  }, [shell, signedIn]);
  if (shell && signedIn) return <AuthSplash />;

  if (decided && !signedIn) {
    if (!login) return <AuthSplash />;
    if ('error' in login) return <LoginUnavailable reason={login.error instanceof Error ? login.error.message : String(login.error)} />;
    return <login.code.LoginScreen site={site} session={session} />;
  }
  return <>{children}</>;
}
