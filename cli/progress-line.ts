/**
 * The live progress line of `docs build` and `docs serve`'s first build on a terminal: one line on
 * stderr, redrawn in place at most ten times a second — stage, pages done of all, time so far and an
 * estimate of what is left — and erased before the summary is printed. Its time moves every second
 * even when no stage reports anything new (a config that takes a while to load, the search index of a
 * large site), so a long stage never looks like a hang. A build stopped by Ctrl-C (or SIGTERM) erases it
 * on its way out, leaving the terminal's next prompt on a clean line. Nothing at all when stderr is not
 * a terminal (CI logs, pipes), is one that cannot redraw a line (`TERM=dumb`: an editor's shell
 * buffer), or the output is JSON.
 */
import type { ProgressEvent } from './build/progress';
import { onStop } from './util/stop-signals';

/** A progress line: `update` with each event, `clear` before printing anything else. */
export interface ProgressLine {
  update: (event: ProgressEvent) => void;
  clear: () => void;
}

const LABELS: Record<ProgressEvent['stage'], string> = {
  config: 'reading the config',
  content: 'reading the content',
  pages: 'rendering pages',
  links: 'checking links',
  write: 'writing the output',
  search: 'indexing for search',
  archive: 'writing the archive',
};

/** Redraws at most this often (ms): a terminal is slow to write, and ten frames a second look live. */
const FRAME_MS = 100;

/** Redraws at least this often (ms) while the line is shown, news or not: its time moves. */
const TICK_MS = 1000;

/**
 * The estimate of what is left comes from the pages done in the last this many seconds. The pages come
 * ever faster as a build goes (the threads first load grammars and meet the pages that cost most:
 * lanes.ts): at 10,000 pages the rate since the start said 56 s left at 8 s in, for 36; the last three
 * seconds' said 44, and 30 for 28 at 16 s in (that rate since the start: 36).
 */
const RATE_WINDOW_S = 3;

/** The share of the pages done before an estimate is shown: before, it said four times too long (176 s left for 40). */
const ESTIMATE_FROM = 0.1;

/** Carriage return and erase-line: the terminal's line is empty again, the cursor at its start. */
const ERASE = '\r\x1b[2K';

/** A count as the line shows it: 37,486. */
const count = (n: number): string => n.toLocaleString('en-GB');

/** Pages done `at` seconds in. */
export interface PagesDone {
  done: number;
  at: number;
}

/**
 * One line for `event`, `elapsed` seconds in. `since` is where the pages stood a few seconds before
 * (`RATE_WINDOW_S`): the estimate of what is left comes from the rate since then, once a tenth of the
 * pages are done (`ESTIMATE_FROM`).
 */
export function formatProgress(event: ProgressEvent, elapsed: number, since?: PagesDone): string {
  const parts = [`docs · ${LABELS[event.stage]}`];
  if (event.stage === 'content' && event.done !== undefined) parts.push(`${count(event.done)} pages read`);
  if (event.stage === 'archive' && event.total !== undefined) parts.push(`${count(event.done ?? 0)}/${count(event.total)} files`);
  if (event.stage === 'pages' && event.total !== undefined) {
    const done = event.done ?? 0;
    parts.push(`${count(done)}/${count(event.total)} pages`);
    if (since && done > since.done && elapsed > since.at && done >= event.total * ESTIMATE_FROM) {
      const rate = (done - since.done) / (elapsed - since.at);
      parts.push(`${elapsed.toFixed(1)} s`, `~${Math.ceil((event.total - done) / rate)} s left`);
      return parts.join(' · ');
    }
  }
  parts.push(`${elapsed.toFixed(1)} s`);
  return parts.join(' · ');
}

/** A progress line on `stream`, or one that does nothing when `stream` is not a terminal. */
export function createProgressLine(stream: NodeJS.WriteStream, enabled = true, env: NodeJS.ProcessEnv = process.env): ProgressLine {
  if (!enabled || !stream.isTTY || env.TERM === 'dumb') return { update: () => undefined, clear: () => undefined };
  const started = performance.now();
  /** True while a frame is on the terminal. */
  let drawn = false;
  /** True when something else wrote to the terminal last and did not end its line. */
  let open = false;
  /** When the last frame was drawn (never yet: the first goes at once). */
  let last = Number.NEGATIVE_INFINITY;
  /** The pages done as they were reported, the last `RATE_WINDOW_S` seconds' and the one before them. */
  const history: PagesDone[] = [];
  let latest: ProgressEvent | undefined;
  let timer: NodeJS.Timeout | undefined;
  /** What the line holds while it is shown (the ticker, the signal listeners, the terminal's writers); undefined when it is not. */
  let held: { ticker: NodeJS.Timeout; writers: Map<NodeJS.WriteStream, NodeJS.WriteStream['write']>; forget: () => void } | undefined;
  /** Writes the line's own text, past the writer `hold` put in place. */
  const own = (text: string): void => void (held?.writers.get(stream) ?? stream.write).call(stream, text);
  /** Takes the frame off the terminal, if one is there. */
  const wipe = (): void => {
    if (drawn) own(ERASE);
    drawn = false;
  };
  /**
   * While the line is shown, what else is written to the same terminal (a config's `console.log`, a
   * render thread's warning) goes on a line of its own: the line is erased first, and drawn again at
   * the next frame, below it.
   */
  const hold = (): void => {
    const writers = new Map<NodeJS.WriteStream, NodeJS.WriteStream['write']>();
    for (const target of new Set([stream, process.stdout, process.stderr])) {
      if (!target.isTTY) continue;
      const write = target.write;
      writers.set(target, write);
      target.write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
        wipe();
        const end = typeof chunk === 'string' ? chunk.charCodeAt(chunk.length - 1) : chunk instanceof Uint8Array ? chunk[chunk.length - 1] : undefined;
        if (end !== undefined && !Number.isNaN(end)) open = end !== 0x0a;
        return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
      } as NodeJS.WriteStream['write'];
    }
    // Neither timer keeps a process alive that has nothing else to do. A build stopped by a signal
    // erases the line on its way out.
    held = { ticker: setInterval(() => timer === undefined && draw(), TICK_MS).unref(), writers, forget: onStop(erase) };
  };
  const erase = (): void => {
    wipe();
    if (!held) return;
    clearInterval(held.ticker);
    for (const [target, write] of held.writers) target.write = write;
    held.forget();
    held = undefined;
  };
  const draw = (): void => {
    timer = undefined;
    if (!latest) return;
    last = performance.now();
    const width = Math.max(20, (stream.columns || 80) - 1);
    const elapsed = (last - started) / 1000;
    while (history.length > 1 && history[1]!.at <= elapsed - RATE_WINDOW_S) history.shift();
    if (!held) hold();
    own(`${open ? '\n' : ''}${ERASE}${formatProgress(latest, elapsed, history[0]).slice(0, width)}`);
    open = false;
    drawn = true;
  };
  return {
    update(event) {
      const elapsed = (performance.now() - started) / 1000;
      if (event.stage === 'pages') history.push({ done: event.done ?? 0, at: elapsed });
      latest = event;
      const wait = FRAME_MS - (performance.now() - last);
      // A frame that is due is drawn now, a timer for it pending or not: a stage that holds the thread
      // (reading the content) lets no timer fire, and its line would stand still until it ends.
      if (wait <= 0) {
        clearTimeout(timer);
        draw();
      } else timer ??= setTimeout(draw, wait);
    },
    clear() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      latest = undefined;
      erase();
    },
  };
}
