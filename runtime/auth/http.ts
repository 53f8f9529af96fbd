/**
 * The one HTTP client of the runtime (spec §7): JSON in and out, the product's headers on every call,
 * the credentials' headers when signed in, and results typed so callers tell a 401 asking for a
 * one-time code, any other 401 and every other failure apart.
 */
import type { AppConfig } from '../manifest';
import { isAuthenticated, type Credentials } from './credentials';

/** The client's defaults (spec §7, §9), in one place. */
export const HTTP_DEFAULTS = {
  /** No timeout: a request waits for as long as the network takes. */
  timeoutMs: 0,
  /** Cookie whose value goes back as `xsrfHeaderName` on same-origin calls. */
  xsrfCookieName: 'XSRF-TOKEN',
  xsrfHeaderName: 'X-XSRF-TOKEN',
  /** Size of the chunks any streamed request or response body is cut into. No call streams today. */
  streamChunkBytes: 65_536,
} as const;

/** What a call came back with. */
export type HttpResult<T> =
  | { kind: 'ok'; status: number; data: T }
  /** 401: `needOtp` is the server's `need_otp`. */
  | { kind: 'unauthorised'; needOtp: boolean }
  /** Anything else: another status, a network error, a body that is not JSON. */
  | { kind: 'failed'; status?: number; reason: string };

/** What the client needs from its environment. */
export interface HttpClientOptions {
  /** Backend base address, e.g. `https://api.quad.example`. */
  baseUrl: string;
  app: AppConfig;
  /** Product name for the version header: `X-<brand>-Version`. */
  brand: string;
  /** The current credentials (read on every call). */
  credentials: () => Credentials;
  /** The roles that admit a reader (`auth.roles`): credentials go on a call only while they sign someone in (spec §7). */
  roles: readonly string[];
  fetch?: typeof fetch;
  /** `document.cookie`. */
  cookies?: () => string;
  /** The page's origin, to know whether a call is same-origin. */
  origin?: string;
}

/** `WEB/4.0.0 (1)`: platform/version (build). */
export function versionHeaderValue(app: AppConfig): string {
  return `${app.platform}/${app.version} (${app.build})`;
}

function cookie(cookies: string, name: string): string | undefined {
  for (const part of cookies.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join('='));
    } catch {
      return value.join('=');
    }
  }
  return undefined;
}

/** The headers of a call to `url` (spec §7). */
export function requestHeaders(options: HttpClientOptions, url: URL): Record<string, string> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Content-Type': 'application/json',
    [`X-${options.brand}-Version`]: versionHeaderValue(options.app),
    'Accept-Language': 'en',
  };
  const credentials = options.credentials();
  const { uid, client, accessToken } = credentials;
  // Spec §7: "when signed in". An account the backend knows but whose roles do not count is stored
  // (setting credentials stores them) without being signed in: its token goes on no call.
  if (isAuthenticated(credentials, options.roles) && uid && client && accessToken) {
    headers['access-token'] = accessToken;
    headers.client = client;
    headers.uid = uid;
  }
  if (options.origin !== undefined && url.origin === options.origin) {
    const xsrf = cookie(options.cookies?.() ?? '', HTTP_DEFAULTS.xsrfCookieName);
    if (xsrf) headers[HTTP_DEFAULTS.xsrfHeaderName] = xsrf;
  }
  return headers;
}

/** The client: one `request` function. */
export interface HttpClient {
  request: <T>(method: string, path: string, body?: unknown) => Promise<HttpResult<T>>;
}

/** Creates the client. */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const send = options.fetch ?? ((input, init) => fetch(input, init));
  return {
    async request<T>(method: string, path: string, body?: unknown): Promise<HttpResult<T>> {
      const url = new URL(path, options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
      let response: Response;
      try {
        // No AbortSignal: the timeout is none (HTTP_DEFAULTS.timeoutMs). Credentials travel as headers, never cookies.
        response = await send(url.href, { method, headers: requestHeaders(options, url), body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
      } catch (error) {
        return { kind: 'failed', reason: error instanceof Error ? error.message : String(error) };
      }
      let data: unknown;
      try {
        const text = await response.text();
        data = text === '' ? undefined : (JSON.parse(text) as unknown);
      } catch {
        if (response.ok) return { kind: 'failed', status: response.status, reason: 'The response is not JSON.' };
      }
      if (response.status === 401) return { kind: 'unauthorised', needOtp: (data as { need_otp?: unknown } | undefined)?.need_otp === true };
      if (!response.ok) return { kind: 'failed', status: response.status, reason: `HTTP ${response.status}` };
      return { kind: 'ok', status: response.status, data: data as T };
    },
  };
}
