/**
 * The reader's session: the credentials store and log-out. The HTTP client lives with the login
 * screen (`login-client.ts`): logging in is the only call, so signed-in page loads never download it.
 */
import type { SiteData } from '../manifest';
import { createAuthStore, type AuthStore, type CredentialStorage } from './store';

/** What the auth gate needs. */
export interface AuthSession {
  store: AuthStore;
  /** Clears the credentials, resets the store and reloads the page (spec §4); behind the gate, ends the host's session first. */
  logOut: () => void;
  /** Forgets credentials the gated host no longer honours (its session expired): the login screen shows. */
  expire: () => void;
}

/** Before each attempt at the host's logout: at once, then after a short wait, then a longer one. */
const LOGOUT_RETRIES_MS = [0, 300, 1200];

/** Storage that works everywhere: localStorage, or nothing at all where it is blocked. */
function browserStorage(): CredentialStorage {
  try {
    return window.localStorage;
  } catch {
    return { getItem: () => null, setItem: () => undefined };
  }
}

/** Creates the session of this page from the site's configuration. */
export function createAuthSession(site: SiteData): AuthSession {
  const store = createAuthStore({ key: site.auth.storageKey, storage: browserStorage() });
  const clearAndReload = (): void => {
    store.clearCredentials();
    store.reset();
    store.persist();
    location.reload();
  };
  return {
    store,
    logOut: () => {
      if (!site.gated) return clearAndReload();
      // Behind the gate the host's session cookie goes too (HttpOnly: only the host can clear it). A
      // logout the host did not confirm (a deploy, a proxy's hiccup) is asked again, twice, before the
      // page signs out all the same: the cookie would otherwise stay valid behind a login screen.
      void (async () => {
        for (const wait of LOGOUT_RETRIES_MS) {
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          const answer = await fetch(site.app.logoutPath, { method: 'POST', credentials: 'same-origin', keepalive: true }).catch(() => undefined);
          if (answer?.ok) break;
        }
      })().finally(clearAndReload);
    },
    expire: () => {
      const { uid, client, accessToken } = store.state;
      if (uid === null && client === null && accessToken === null) return;
      store.clearCredentials();
      store.persist();
    },
  };
}
