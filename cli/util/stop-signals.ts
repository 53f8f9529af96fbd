/**
 * Work to do when Ctrl-C (SIGINT) or SIGTERM stops the process: erase the live progress line, remove a
 * file half written. Listening to a signal keeps Node from ending the process on it, so the last
 * listener to run ends it by the same signal, as it would have ended without any (exit status 130 for
 * SIGINT in a shell); `docs serve`, which listens itself to stop its server, is left to do so.
 */
const STOPS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/** Runs `cleanup` if the process is stopped by a signal; returns the function that stops listening. */
export function onStop(cleanup: () => void): () => void {
  const stopped = (signal: NodeJS.Signals): void => {
    forget();
    cleanup();
    // Heard by nothing else (docs build), the signal ends the process as it would have without this listener.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const forget = (): void => {
    for (const signal of STOPS) process.removeListener(signal, stopped);
  };
  for (const signal of STOPS) process.prependListener(signal, stopped);
  return forget;
}
