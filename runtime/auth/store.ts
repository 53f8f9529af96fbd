/**
 * The credentials store: a valtio proxy, React-free (the gate reads its snapshot, AuthGate.tsx), persisted
 * to localStorage under a named key as `{state, version: 0}` and kept in step across tabs.
 */
import { proxy, subscribe } from 'valtio/vanilla';
import { emptyCredentials, parsePersisted, serialiseCredentials, type Credentials } from './credentials';

/** The parts of `Storage` the store uses (tests pass a Map-backed one). */
export type CredentialStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** The store and its operations. */
export interface AuthStore {
  /** The proxy: read through valtio's `snapshot` in components (AuthGate.tsx), or directly outside React. */
  state: Credentials;
  /** Sets (and so persists) the credentials of a successful login. */
  setCredentials: (credentials: Credentials) => void;
  /** Empties uid, client and accessToken; roles stay as they are (spec §4). */
  clearCredentials: () => void;
  /** Back to the initial state, roles included. */
  reset: () => void;
  /** Re-reads storage (another tab changed it). */
  reload: () => void;
  /** Writes the state now rather than after the current task (before a page reload). */
  persist: () => void;
}

/** Creates the store over `storage` under `key`, starting from what is persisted there. */
export function createAuthStore({ key, storage }: { key: string; storage: CredentialStorage }): AuthStore {
  const read = (): Credentials => {
    try {
      return parsePersisted(storage.getItem(key));
    } catch {
      return emptyCredentials();
    }
  };
  const state = proxy<Credentials>(read());
  const assign = (next: Credentials): void => {
    state.uid = next.uid;
    state.client = next.client;
    state.accessToken = next.accessToken;
    state.roles = [...next.roles];
  };
  /**
   * Writes the state unless storage already holds it: a change another tab made and this one
   * re-read is not echoed back (an echo of a half-applied change could undo the other tab's work).
   */
  const text = (): string => serialiseCredentials({ uid: state.uid, client: state.client, accessToken: state.accessToken, roles: [...state.roles] });
  const persist = (): void => {
    const current = text();
    try {
      if (storage.getItem(key) !== current) storage.setItem(key, current);
    } catch {
      // Storage unavailable: the sign-in lasts for this page only.
    }
  };
  // Batched: the operations below change several fields, which are written once, together.
  subscribe(state, persist);
  return {
    state,
    setCredentials: assign,
    clearCredentials: () => {
      state.uid = null;
      state.client = null;
      state.accessToken = null;
    },
    reset: () => assign(emptyCredentials()),
    persist,
    reload: () => {
      const next = read();
      if (serialiseCredentials(next) !== text()) assign(next);
    },
  };
}
