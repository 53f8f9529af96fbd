/** What `docs serve` is started with (`startServer` in index.ts), and what it hands back. */

/** Options of `startServer`. */
export interface ServeOptions {
  /** Site root: the folder of `site.config.ts`. */
  root: string;
  /** @default 3000; 0 picks a free port. */
  port: number;
  /** @default '127.0.0.1' */
  host: string;
  /** A real backend for `POST /api/login`; without it the server answers with development accounts. */
  backend?: string;
  /** Serve this finished build as it is: no build, no watching, no live reload. */
  dist?: string;
  /** Open the site in the default browser once it is served. */
  open?: boolean;
  env: Record<string, string | undefined>;
  /** Compiled worker entry, for full builds. */
  workerUrl?: URL;
  /** Where progress and errors are printed. */
  log: (line: string) => void;
  /** Show the first build's live progress line when stderr is a terminal. @default true */
  progress?: boolean;
  /**
   * Serve behind the gate: only a reader with a session cookie gets the documentation (see
   * `gate.ts`). With `dist`, the build must have been made with `--gate` and a backend named.
   */
  gate?: boolean;
  /** Lifetime of a gate session in days. @default 30 */
  sessionDays?: number;
  /** Behind a proxy that adds the reader's address to X-Forwarded-For: the gate counts failed logins by it (`GateOptions.trustProxy`). */
  trustProxy?: boolean;
}

/** A running server. */
export interface DevServer {
  url: string;
  /** Stops watching, ends the event streams and closes the server. */
  close: () => Promise<void>;
  /** Shows a failure that came from outside a build (a timer of the config failing later) as a build's: the terminal and the overlay; the server goes on. */
  report?: (error: unknown) => void;
}
