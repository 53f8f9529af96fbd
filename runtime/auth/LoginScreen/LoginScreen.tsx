import { useEffect, useMemo, useRef, useState, type FormEvent, type JSX } from 'react';
import type { SiteData } from '../../manifest';
import { isAuthenticated } from '../credentials';
import { createHttpClient } from '../http';
import { canSubmit, logIn, type LoginForm } from '../login';
import type { AuthSession } from '../session';

/** How long a click on the logo animates it (spec §9). */
export const LOGO_ANIMATION_MS = 2000;

/** The messages of the error catalogue (spec §8) and the one for an account without an admitted role. */
export type LoginError = 'credentials' | 'otp' | 'network' | 'role';

function ErrorMessage({ error, site }: { error: LoginError; site: SiteData }): JSX.Element {
  const email = site.auth.supportEmail;
  switch (error) {
    case 'credentials':
      return (
        <>
          <p className="login-error-title">Incorrect email address or password</p>
          <p className="login-error-tip">Tip: use the email address linked to the account, not necessarily the academic email address.</p>
        </>
      );
    case 'otp':
      return <p className="login-error-title">Incorrect OTP code</p>;
    case 'network':
      return (
        <p className="login-error-title">
          An issue occurred during login. Please try again later. If this issue keeps occurring, contact us at <a href={`mailto:${email}`}>{email}</a>.
        </p>
      );
    case 'role':
      // The specification is silent here; an account that signs in without an admitted role is told why.
      return (
        <p className="login-error-title">
          This account has no access to {site.title}: it needs the {site.auth.roles.join(' or ')} role. Contact us at <a href={`mailto:${email}`}>{email}</a>.
        </p>
      );
  }
}

/** The login screen, shown in place of any page while the reader is not authenticated (spec §2). */
export function LoginScreen({ site, session }: { site: SiteData; session: AuthSession }): JSX.Element {
  const [form, setForm] = useState<LoginForm>({ email: '', password: '', otp: '' });
  const [otpShown, setOtpShown] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<LoginError | null>(null);
  /** When the logo was last clicked (0: it is still): a new value for every click restarts its timer. */
  const [logoClicked, setLogoClicked] = useState(0);
  const otpField = useRef<HTMLInputElement>(null);
  const http = useMemo(
    () =>
      createHttpClient({
        // Behind the gate the login goes to this origin, which forwards it and sets the session cookie.
        // A relative backend address (`docs serve`'s `/`) is this origin too.
        baseUrl: site.gated ? location.origin : new URL(site.app.backendUrl, location.href).href,
        app: site.app,
        brand: site.brand,
        credentials: () => session.store.state,
        roles: site.auth.roles,
        cookies: () => document.cookie,
        origin: location.origin,
      }),
    [site, session],
  );

  useEffect(() => {
    if (otpShown) otpField.current?.focus();
  }, [otpShown]);
  useEffect(() => {
    if (!logoClicked) return;
    // Each click animates the logo for 2 s from that click (spec §9): a click while it moves starts the 2 s again.
    const timer = setTimeout(() => setLogoClicked(0), LOGO_ANIMATION_MS);
    return () => clearTimeout(timer);
  }, [logoClicked]);

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    // Spec §5: an incomplete form is ignored without a word, and one request runs at a time.
    if (busy || !canSubmit(form)) return;
    setBusy(true);
    const outcome = await logIn(http, form, otpShown);
    setBusy(false);
    if (outcome.kind === 'otp-required') {
      setError(null);
      setOtpShown(true);
    } else if (outcome.kind === 'error') {
      setError(outcome.error);
    } else {
      session.store.setCredentials(outcome.credentials);
      const admitted = isAuthenticated(outcome.credentials, site.auth.roles);
      setError(admitted ? null : 'role');
      // Behind the gate this page is the sign-in shell: with the cookie set, the host sends the real one.
      if (admitted && site.gated) {
        session.store.persist();
        location.reload();
      }
    }
  };
  const field = (name: keyof LoginForm) => ({
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value }),
  });

  return (
    <main className="login" id="main">
      <div className="login-box">
        <button type="button" className="login-logo-button" aria-label={`${site.title} logo`} onClick={() => setLogoClicked(performance.now())}>
          <span className={busy || logoClicked ? 'login-logo animated' : 'login-logo'} aria-hidden="true" />
        </button>
        <h1 className="login-heading">{site.auth.loginHeading}</h1>
        <form className="login-form" method="post" noValidate onSubmit={(event) => void submit(event)} aria-busy={busy}>
          <label className="login-label">
            E-mail
            <input className="login-input" type="email" name="email" autoComplete="email" {...field('email')} />
          </label>
          <label className="login-label">
            Password
            <input className="login-input" type="password" name="password" autoComplete="current-password" {...field('password')} />
          </label>
          {otpShown ? (
            <label className="login-label">
              OTP code
              <input className="login-input" type="text" name="otp_attempt" inputMode="numeric" autoComplete="one-time-code" ref={otpField} {...field('otp')} />
            </label>
          ) : null}
          {error ? (
            <div className="login-error" role="alert">
              <ErrorMessage error={error} site={site} />
            </div>
          ) : null}
          <button type="submit" className="button login-button" disabled={busy}>
            {site.auth.loginButton}
          </button>
        </form>
      </div>
    </main>
  );
}
