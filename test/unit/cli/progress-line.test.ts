/** The live progress line's frames, with the clock in the test's hands. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProgressLine, formatProgress } from '../../../cli/progress-line';

/** A terminal 100 columns wide that keeps what is written to it, one frame per redraw. */
function terminal(): { stream: NodeJS.WriteStream; frames: string[] } {
  const frames: string[] = [];
  const stream = { isTTY: true, columns: 100, write: (text: string) => frames.push(text.replace('\r\x1b[2K', '')) } as unknown as NodeJS.WriteStream;
  return { stream, frames };
}

describe('the progress line', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['performance', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] }));
  afterEach(() => vi.useRealTimers());

  it('estimates what is left from the last seconds of pages, once a tenth of them are done', () => {
    const { stream, frames } = terminal();
    const line = createProgressLine(stream, true, {});
    line.update({ stage: 'pages', done: 0, total: 1000 });
    // Slow at first (the threads load grammars), 20 pages a second from then on.
    vi.advanceTimersByTime(4500);
    line.update({ stage: 'pages', done: 60, total: 1000 });
    expect(frames.at(-1)).toBe('docs · rendering pages · 60/1,000 pages · 4.5 s');
    for (let done = 80; done <= 140; done += 20) {
      vi.advanceTimersByTime(1000);
      line.update({ stage: 'pages', done, total: 1000 });
    }
    // 140 done at 8.5 s: the rate since the start (16.5 a second) would say 53 s; the last three seconds' says 43.
    expect(frames.at(-1)).toBe('docs · rendering pages · 140/1,000 pages · 8.5 s · ~43 s left');
    line.clear();
  });

  it('moves its time every second while nothing new is reported, and stops once cleared', () => {
    const { stream, frames } = terminal();
    const line = createProgressLine(stream, true, {});
    line.update({ stage: 'search' });
    vi.advanceTimersByTime(2500);
    expect(frames).toEqual(['docs · indexing for search · 0.0 s', 'docs · indexing for search · 1.0 s', 'docs · indexing for search · 2.0 s']);
    line.clear();
    expect(frames.at(-1)).toBe('');
    vi.advanceTimersByTime(3000);
    expect(frames).toHaveLength(4);
  });

  it('is nothing on a terminal that cannot redraw a line, nor on one that is no terminal', () => {
    for (const [isTTY, env] of [[true, { TERM: 'dumb' }], [false, {}]] as const) {
      const { stream, frames } = terminal();
      (stream as { isTTY: boolean }).isTTY = isTTY;
      const line = createProgressLine(stream, true, env);
      line.update({ stage: 'pages', done: 1, total: 2 });
      vi.advanceTimersByTime(2000);
      line.clear();
      expect(frames).toEqual([]);
    }
  });
});

describe('the progress line through a stage that holds the thread', () => {
  afterEach(() => vi.restoreAllMocks());

  it('counts the page files read, each due frame drawn at once: no timer fires while the walk runs', () => {
    let now = 1000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const { stream, frames } = terminal();
    const line = createProgressLine(stream, true, {});
    line.update({ stage: 'content' });
    // Files read every 10 ms, in one synchronous walk (the clock moves, the event loop does not).
    for (let done = 1; done <= 25; done++) {
      now += 10;
      line.update({ stage: 'content', done });
    }
    expect(frames).toEqual(['docs · reading the content · 0.0 s', 'docs · reading the content · 10 pages read · 0.1 s', 'docs · reading the content · 20 pages read · 0.2 s']);
    line.clear();
  });
});

describe('formatProgress', () => {
  it('names each stage, with what it counts', () => {
    expect(formatProgress({ stage: 'content', done: 5436 }, 0.74)).toBe('docs · reading the content · 5,436 pages read · 0.7 s');
    expect(formatProgress({ stage: 'archive', done: 1200, total: 37486 }, 21.25)).toBe('docs · writing the archive · 1,200/37,486 files · 21.3 s');
    expect(formatProgress({ stage: 'links' }, 3)).toBe('docs · checking links · 3.0 s');
  });
});
