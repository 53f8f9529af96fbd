import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState, type JSX, type ReactNode } from 'react';
import { useSnapshot } from 'valtio/react';
import type { SiteData } from '../manifest';
import { isAuthenticated } from './credentials';
import { loadLoginScreen } from './load-login';
import { scrollToFragment } from '../routing';
import { hidePageTitle } from '../title';
import type { AuthSession } from './session';
import './auth-gate.css';
// Imported here, not by the lazy chunk: esbuild would split it into a stylesheet nothing links.
import './LoginScreen/login-screen.css';

/** The login screen is a chunk of its own: signed-in readers, most page loads, never download it. */
const LoginScreen = lazy(() => loadLoginScreen().then((module) => ({ default: module.LoginScreen })));

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
  const credentials = useSnapshot(session.store.state);
  const signedIn = isAuthenticated(credentials, site.auth.roles);
  const [decided, setDecided] = useState(false);

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

  if (decided && !signedIn) {
    return (
      <Suspense fallback={<AuthSplash />}>
        <LoginScreen site={site} session={session} />
      </Suspense>
    );
  }
  return <>{children}</>;
}
