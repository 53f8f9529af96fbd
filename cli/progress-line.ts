/**
 * The live progress line of `docs build` and `docs serve`'s first build on a terminal: one line on
 * stderr, redrawn in place at most ten times a second — stage, pages done of all, time so far and an
 * estimate of what is left — and erased before the summary is printed. Nothing at all when stderr is
 * not a terminal (CI logs, pipes) or the output is JSON.
 */
import type { ProgressEvent } from './build/progress';

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
};

/** Redraws at most this often (ms): a terminal is slow to write, and ten frames a second look live. */
const FRAME_MS = 100;

/** One line for `event`, `elapsed` seconds in; the estimate comes from the pages' rate so far. */
export function formatProgress(event: ProgressEvent, elapsed: number, since?: { done: number; at: number }): string {
  const parts = [`docs · ${LABELS[event.stage]}`];
  if (event.stage === 'pages' && event.total !== undefined) {
    const done = event.done ?? 0;
    parts.push(`${done.toLocaleString('en-GB')}/${event.total.toLocaleString('en-GB')} pages`);
    if (since && done > since.done && elapsed > since.at) {
      const rate = (done - since.done) / (elapsed - since.at);
      parts.push(`${elapsed.toFixed(1)} s`, `~${Math.ceil((event.total - done) / rate)} s left`);
      return parts.join(' · ');
    }
  }
  parts.push(`${elapsed.toFixed(1)} s`);
  return parts.join(' · ');
}

/** A progress line on `stream`, or one that does nothing when `stream` is not a terminal. */
export function createProgressLine(stream: NodeJS.WriteStream, enabled = true): ProgressLine {
  if (!enabled || !stream.isTTY) return { update: () => undefined, clear: () => undefined };
  const started = performance.now();
  let drawn = false;
  let last = 0;
  let pagesStart: { done: number; at: number } | undefined;
  let latest: ProgressEvent | undefined;
  let timer: NodeJS.Timeout | undefined;
  const draw = (): void => {
    timer = undefined;
    if (!latest) return;
    last = performance.now();
    const width = Math.max(20, (stream.columns || 80) - 1);
    stream.write(`\r\x1b[2K${formatProgress(latest, (last - started) / 1000, pagesStart).slice(0, width)}`);
    drawn = true;
  };
  return {
    update(event) {
      const elapsed = (performance.now() - started) / 1000;
      if (event.stage === 'pages') pagesStart ??= { done: event.done ?? 0, at: elapsed };
      latest = event;
      if (timer) return;
      const wait = FRAME_MS - (performance.now() - last);
      if (wait <= 0) draw();
      else timer = setTimeout(draw, wait);
    },
    clear() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      latest = undefined;
      if (drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}
