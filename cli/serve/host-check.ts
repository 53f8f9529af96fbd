/**
 * DNS rebinding: a page on any site can have its own name point at 127.0.0.1 for a moment, and its
 * scripts then read whatever answers there as same-origin: a writer's `docs serve`, the documentation,
 * the search index, the development accounts' logins. What gives it away is the `Host` header, which
 * names the page's site. A server bound to this machine alone answers only the names of this machine
 * (`localhost`, `*.localhost`, an IP address, the `--host` it was given), as Vite's and webpack's
 * development servers do; one bound to a network address was meant for other machines, which reach it
 * by names it cannot know, and answers every name.
 */
import { isIP } from 'node:net';

/** True for an address that only this machine can reach. */
export function isLoopback(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare.endsWith('.localhost') || bare === '::1' || /^127\./.test(bare) || /^::ffff:127\./.test(bare);
}

/** The name in a Host header, without its port or IPv6 brackets, lower-case. */
function hostName(header: string): string {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(1, value.indexOf(']') === -1 ? undefined : value.indexOf(']'));
  const colon = value.lastIndexOf(':');
  return colon !== -1 && /^\d*$/.test(value.slice(colon + 1)) ? value.slice(0, colon) : value;
}

/**
 * Why a request must not be answered, or undefined: its `Host` names another site while the server
 * (bound to `bound`) serves this machine alone. No Host at all (HTTP/1.0, a script) is no browser's.
 */
export function foreignHost(header: string | undefined, bound: string): string | undefined {
  if (!header || !isLoopback(bound)) return undefined;
  const name = hostName(header);
  if (name === 'localhost' || name.endsWith('.localhost') || isIP(name) !== 0 || name === hostName(bound)) return undefined;
  return `Forbidden: this server answers requests for localhost, 127.0.0.1 and [::1], not for "${name}" (a page of another site reaching it under its own name). To serve it under that name, start it with --host ${name}.`;
}

/**
 * What a server that other machines reach (`--host` a network address) says at start: without a gate,
 * that every page is a plain file for them (the login screen a browser shows hides nothing from
 * `curl`); behind one, what the gate then cannot do. Nothing when it serves this machine alone.
 */
export function networkNotes(host: string, gated: boolean, developmentAccounts: boolean): string[] {
  if (isLoopback(host)) return [];
  if (!gated) return [`Note: on ${host} anyone on the network can read every page, the search index included: the login screen only hides them in a browser. Start with --gate to serve them to signed-in readers alone.`];
  return [
    ...(developmentAccounts ? [`Note: on ${host} anyone on the network can sign in with a development account and the password above; serve other machines with --backend URL.`] : []),
    'Note: readers on other machines need HTTPS in front of this server (a TLS proxy that sets X-Forwarded-Proto: https): the session cookie is Secure, and a browser drops it over plain HTTP, which would bring a reader back to the login screen after each login.',
  ];
}
