/**
 * The render thread `docs serve` keeps for its life: a save's pages, and the pages of a full rebuild
 * too few for a pool of their own, render there, so the server answers every request while a heavy
 * page renders (a page of 40,000 list items held every request for 30 s when it rendered on the
 * server's thread). Started after the first build, with that build's highlighter settings (the thread
 * makes a new highlighter when a later build names others), and started again when it ended (a page
 * ran it out of its heap): that update failed, the next one gets a new thread.
 */
import type { HighlightSettings } from '../build/markdown/highlighter';
import { startPool, type RenderPool } from '../build/pool';

export class RenderThread {
  private pool?: RenderPool;
  private settings?: HighlightSettings;
  private stopped = false;

  /** Without a worker entry (`DOCS_THREADS=0`) there is no thread: pages render on the server's. */
  constructor(private readonly workerUrl: URL | undefined) {}

  /** A build was made with these highlighter settings: the thread starts now if it has not. */
  built(settings: HighlightSettings): void {
    this.settings = { codeTheme: settings.codeTheme, highlightLanguages: settings.highlightLanguages };
    if (this.workerUrl && !this.stopped) this.pool ??= startPool({ workerUrl: this.workerUrl, threads: 1, highlighting: this.settings });
  }

  /** The thread, started again when the last one ended; undefined before the first build and once the server stops. */
  current(): RenderPool | undefined {
    if (this.stopped) return undefined;
    if (this.pool?.stopped && this.workerUrl && this.settings) this.pool = startPool({ workerUrl: this.workerUrl, threads: 1, highlighting: this.settings });
    return this.pool;
  }

  /** Stops it at once, a page half-rendered or not; none is started after. */
  stop(): Promise<void> {
    this.stopped = true;
    return this.pool?.stop() ?? Promise.resolve();
  }
}
