/**
 * The render worker's entry, compiled to worker/worker.mjs: runs the worker's code (cli/build/worker.ts,
 * compiled to one CommonJS file, worker.cjs) with V8's code cache of it (cli/util/code-cache.ts). The
 * cache is made when the thread's first build closes, with what the thread compiled for its pages.
 */
import { fileURLToPath } from 'node:url';
import { parentPort } from 'node:worker_threads';
import { runWithCodeCache } from '../util/code-cache';
import type { WorkerRequest } from './worker';

const run = runWithCodeCache(fileURLToPath(new URL('./worker.cjs', import.meta.url)));
// Heard after the worker's own listener (the code above added it): the close's commit is under way.
// A thread that worked a while makes a cache a smaller build left again when it grew (`save`).
parentPort?.on('message', (request: WorkerRequest) => {
  if ('close' in request) run.save();
});
