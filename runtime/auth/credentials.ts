/**
 * The credentials a signed-in reader holds (spec §3) and the rule that admits them (spec §4, §6).
 * Pure and self-contained: `isAuthenticated` is also serialised into the inline head script.
 */

/** What the client keeps after a login. */
export interface Credentials {
  /** The user's e-mail address (devise_token_auth's `uid`). */
  uid: string | null;
  client: string | null;
  accessToken: string | null;
  /** Roles of the user, e.g. `['quad_member']`. */
  roles: string[];
}

/** The persisted form in localStorage: the store's state and its format version. */
export interface PersistedCredentials {
  state: Credentials;
  version: 0;
}

/** Signed out: the store's initial state. */
export function emptyCredentials(): Credentials {
  return { uid: null, client: null, accessToken: null, roles: [] };
}

/**
 * Authenticated: uid, client and accessToken all set, and roles including one of `admitted`
 * (`admin` or `quad_member` on the portal). Written without helpers or newer syntax because the head
 * script runs this very function's source before anything else on the page.
 */
export function isAuthenticated(credentials: Readonly<Partial<Omit<Credentials, 'roles'>> & { roles?: readonly string[] }> | null | undefined, admitted: readonly string[]): boolean {
  if (!credentials || !credentials.uid || !credentials.client || !credentials.accessToken) return false;
  const roles = Array.isArray(credentials.roles) ? credentials.roles : [];
  for (let i = 0; i < roles.length; i++) if (admitted.indexOf(roles[i] as string) !== -1) return true;
  return false;
}

/** Reads persisted credentials; anything malformed or of another version reads as signed out. */
export function parsePersisted(text: string | null): Credentials {
  if (!text) return emptyCredentials();
  try {
    const parsed = JSON.parse(text) as Partial<PersistedCredentials> | null;
    if (!parsed || parsed.version !== 0 || typeof parsed.state !== 'object' || parsed.state === null) return emptyCredentials();
    const { uid, client, accessToken, roles } = parsed.state;
    const text_ = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
    return {
      uid: text_(uid),
      client: text_(client),
      accessToken: text_(accessToken),
      roles: Array.isArray(roles) ? roles.filter((role): role is string => typeof role === 'string') : [],
    };
  } catch {
    return emptyCredentials();
  }
}

/** The persisted form of `credentials`. */
export function serialiseCredentials(credentials: Credentials): string {
  return JSON.stringify({ state: credentials, version: 0 } satisfies PersistedCredentials);
}
