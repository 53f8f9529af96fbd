/** The login flow of spec §4 and §7: one call, and what its answer means for the login screen. */
import type { Credentials } from './credentials';
import type { HttpClient } from './http';

/** What the form holds. */
export interface LoginForm {
  email: string;
  password: string;
  /** The one-time code; sent only while the OTP field shows. */
  otp: string;
}

/** The body of `POST /api/login`. */
export interface LoginRequest {
  email: string;
  password: string;
  otp_attempt?: string;
}

/** The fields of a successful answer the client reads. */
export interface LoginResponse {
  data: { user: { email: string; roles: string[] }; client: string; access_token: string };
}

/** What the screen does next. */
export type LoginOutcome =
  | { kind: 'signed-in'; credentials: Credentials }
  /** The server asked for a one-time code: show the field, no message. */
  | { kind: 'otp-required' }
  | { kind: 'error'; error: 'credentials' | 'otp' | 'network' };

/** True when the form may be sent: e-mail and password both non-empty (spec §5). */
export function canSubmit(form: LoginForm): boolean {
  return form.email !== '' && form.password !== '';
}

/** The request body: `otp_attempt` only when the OTP field shows. */
export function loginRequest(form: LoginForm, otpShown: boolean): LoginRequest {
  return otpShown ? { email: form.email, password: form.password, otp_attempt: form.otp } : { email: form.email, password: form.password };
}

/** Sends the login and interprets the answer exactly as spec §4 lists. */
export async function logIn(client: HttpClient, form: LoginForm, otpShown: boolean): Promise<LoginOutcome> {
  const result = await client.request<LoginResponse>('POST', 'api/login', loginRequest(form, otpShown));
  if (result.kind === 'unauthorised') {
    if (result.needOtp) return otpShown ? { kind: 'error', error: 'otp' } : { kind: 'otp-required' };
    return { kind: 'error', error: 'credentials' };
  }
  if (result.kind === 'failed') return { kind: 'error', error: 'network' };
  const data = result.data?.data;
  // An answer without all three of uid, client and token signs no one in (spec §4: all set): it is a
  // failed login like any other the specification does not name, not an account without the role.
  const set = (value: unknown): value is string => typeof value === 'string' && value !== '';
  if (!data?.user || !set(data.user.email) || !set(data.client) || !set(data.access_token)) return { kind: 'error', error: 'network' };
  return {
    kind: 'signed-in',
    credentials: { uid: data.user.email, client: data.client, accessToken: data.access_token, roles: Array.isArray(data.user.roles) ? data.user.roles.filter((role) => typeof role === 'string') : [] },
  };
}
