/**
 * The output's stamps (unchanged.ts `stampOutputs`) taken on a thread of their own. A rebuild that
 * has something to do needs them only once it knows its pages (`presentFiles`), and at 10,000 pages
 * they are some 37,500 `stat` calls (0.25–0.3 s): a thread started with the build takes them while
 * this one reads the content and finds what changed.
 */
import { Worker } from 'node:worker_threads';
import { stampOf, stampOutputs, stampsDigest, type OutputStamps } from './unchanged';

/**
 * The thread: each path's stats as four numbers (folder 1 or file 0, size, mtime, ctime; -1 first for
 * a path with none), handed back in one transferred buffer. Absolute paths: a thread cannot change the
 * working folder, and the main thread's `withinFolder` changes the one they share.
 */
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { statSync } = require('node:fs');
const { dir, paths } = workerData;
const numbers = new Float64Array(paths.length * 4);
for (let i = 0; i < paths.length; i++) {
  let stats;
  try {
    stats = statSync(paths[i] === '' ? dir : dir + '/' + paths[i]);
  } catch {
    numbers[4 * i] = -1;
    continue;
  }
  numbers[4 * i] = stats.isDirectory() ? 1 : 0;
  numbers[4 * i + 1] = stats.size;
  numbers[4 * i + 2] = stats.mtimeMs;
  numbers[4 * i + 3] = stats.ctimeMs;
}
parentPort.postMessage(numbers, [numbers.buffer]);
`;

/** `stampOutputs(outDir, paths)` from another thread; on this one if the thread cannot start or fails. */
export function stampOutputsInThread(outDir: string, paths: string[]): Promise<OutputStamps> {
  return new Promise((resolve) => {
    const here = (): void => resolve(stampOutputs(outDir, paths));
    let worker: Worker;
    try {
      worker = new Worker(SOURCE, { eval: true, workerData: { dir: outDir, paths } });
    } catch {
      here();
      return;
    }
    worker.once('message', (numbers: Float64Array) => {
      const stamps = paths.map((_, i) => (numbers[4 * i] === -1 ? '' : stampOf(numbers[4 * i] === 1, { size: numbers[4 * i + 1]!, mtimeMs: numbers[4 * i + 2]!, ctimeMs: numbers[4 * i + 3]! })));
      resolve(stampsDigest(paths, stamps));
    });
    worker.once('error', here);
  });
}
