/**
 * The gate's sessions: the signed cookie value that is the session (the host keeps no session table),
 * and the memory of the sessions logged out, which a copied cookie must not open again.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Logged-out sessions remembered for one reader at most. Past it, the reader's next logout ends every
 * session of theirs that began before it (`EndedSessions`): one account logging in and out for ever
 * costs the host no more memory, and no logout is ever forgotten.
 */
export const MAX_ENDED_PER_READER = 1_000;

/**
 * A signed session value: `base64url(JSON {u, e, n, i}).base64url(HMAC-SHA256)`: the reader, the
 * expiry (seconds since the epoch), a random `n`, so that each login is its own session (logging out on
 * one machine ends that one, not the reader's others), and when it began (`i`, milliseconds).
 */
export function signSession(secret: Buffer, uid: string, expires: number, issued = Date.now()): string {
  const payload = Buffer.from(JSON.stringify({ u: uid, e: expires, n: randomBytes(9).toString('base64url'), i: issued })).toString('base64url');
  return `${payload}.${createHmac('sha256', secret).update(payload).digest('base64url')}`;
}

/** A session as its cookie says it: the reader, its expiry (seconds), its random name and when it began (milliseconds; 0 when unknown). */
export interface Session {
  uid: string;
  expires: number;
  nonce: string;
  issued: number;
}

/**
 * The session of a value signed with `secret` and not expired. The signature must be written exactly as
 * the host wrote it: base64url decoding skips characters outside its alphabet and the spare bits of the
 * last one, so `…=`, `…!` or a last letter one off would otherwise be the same session under another
 * name.
 */
export function sessionOf(secret: Buffer, value: string | undefined, now: number): Session | undefined {
  if (!value) return undefined;
  const dot = value.indexOf('.');
  if (dot <= 0) return undefined;
  const payload = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(createHmac('sha256', secret).update(payload).digest('base64url'));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const { u, e, n, i } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { u?: unknown; e?: unknown; n?: unknown; i?: unknown };
    if (typeof u !== 'string' || typeof e !== 'number' || e <= now) return undefined;
    return { uid: u, expires: e, nonce: typeof n === 'string' ? n : payload, issued: typeof i === 'number' ? i : 0 };
  } catch {
    return undefined;
  }
}

/**
 * Sessions logged out, by reader and session name, until they would have expired (seconds). Kept in
 * memory (see README, "The gated host"), `MAX_ENDED_PER_READER` a reader; past that, the reader's
 * sessions begun before a time (milliseconds) are all ended, until the last of them would have expired.
 */
export class EndedSessions {
  private readonly ended = new Map<string, Map<string, number>>();
  private readonly cutoffs = new Map<string, { before: number; until: number }>();
  private logouts = 0;

  /** `sessionSeconds`: how long a session lives; `now`: the clock, in milliseconds. */
  constructor(
    private readonly sessionSeconds: number,
    private readonly now: () => number,
  ) {}

  /** True when `session` was logged out (`seconds`: now, since the epoch). */
  has(session: Session, seconds: number): boolean {
    const cutoff = this.cutoffs.get(session.uid);
    return this.ended.get(session.uid)?.has(session.nonce) === true || (cutoff !== undefined && cutoff.until > seconds && session.issued < cutoff.before);
  }

  /** Remembers that `session` was logged out. */
  add(session: Session, seconds: number): void {
    // Now and then, what expired goes, for every reader.
    if (++this.logouts % 1_000 === 0) {
      for (const [uid, sessions] of this.ended) {
        for (const [nonce, expires] of sessions) if (expires <= seconds) sessions.delete(nonce);
        if (sessions.size === 0) this.ended.delete(uid);
      }
      for (const [uid, cutoff] of this.cutoffs) if (cutoff.until <= seconds) this.cutoffs.delete(uid);
    }
    const sessions = this.ended.get(session.uid) ?? new Map<string, number>();
    for (const [nonce, expires] of sessions) if (expires <= seconds) sessions.delete(nonce);
    if (sessions.size < MAX_ENDED_PER_READER) {
      this.ended.set(session.uid, sessions.set(session.nonce, session.expires));
      return;
    }
    // The reader's every session begun until now ends; none of theirs needs remembering one by one.
    this.ended.delete(session.uid);
    this.cutoffs.set(session.uid, { before: this.now(), until: seconds + this.sessionSeconds });
  }
}
