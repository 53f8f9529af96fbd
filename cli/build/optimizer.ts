/**
 * V8's optimizing compiler (TurboFan) only for builds large enough to repay it. Each thread of a build
 * compiles its own optimized code, on the machine's cores, while the threads render: for a site of a
 * few hundred pages that compiling costs more than the faster code saves. Measured on this machine
 * (2 cores, Node 20, cold builds, `bench/run-build.mjs`, whole process with and without `--no-opt`):
 *
 * | site | markdown | default | without TurboFan |
 * |---|---|---|---|
 * | the portal, 139 pages | 0.6 MB | 5.07 s, 9.6 s CPU | 4.15 s, 7.8 s CPU |
 * | generated, 300 pages | 2.4 MB | 4.89 / 5.05 s | 4.97 / 5.61 s |
 * | generated, 1,000 pages | 7.7 MB | 9.59 / 9.21 s | 13.26 / 13.68 s |
 * | generated, 10,000 pages | 76 MB | 71 s | 118 s |
 *
 * So `docs build` turns the optimizer off (`fitOptimizer`) once it knows the site is small (no more
 * than LARGE_SITE pages) and back on if the pages it renders hold more than LARGE_RENDER of markdown. A
 * large site never has it off: its main thread walks the pages in loops worth optimizing, a one-page
 * rebuild too. V8's flags are the process's: the render threads follow. `docs serve` does the same
 * for its first build, the one a writer waits for, and then gives the optimizer back for good (its
 * process lives long). A process whose Node flags choose the compilers is left alone.
 */
import { setFlagsFromString } from 'node:v8';

/** More pages than this make a large site. */
export const LARGE_SITE = 1000;
/** More markdown to render than this (in characters) makes a large build: below the break-even measured above. */
export const LARGE_RENDER = 1_500_000;

/** Sets a V8 flag (a parameter for the tests). */
type SetFlag = (flag: string) => void;

/** Off: the compilers are left alone; may: this process may turn the optimizer off; held: it did; large: the build is large. */
let state: { now: 'off' } | { now: 'may' | 'held' | 'large'; setFlag: SetFlag } = { now: 'off' };

/** Lets `fitOptimizer` turn the optimizing compiler off (`docs build`), unless Node was given a flag that chooses the compilers. */
export function mayHoldOptimizer(setFlag: SetFlag = setFlagsFromString, nodeFlags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)]): void {
  if (state.now !== 'off' || nodeFlags.some((arg) => /^--(?:no-)?(?:opt|turbofan|maglev|max-opt|always-opt)(?:$|=)/.test(arg))) return;
  state = { now: 'may', setFlag };
}

/**
 * What the build knows of its size so far: the optimizer goes off when the site has few pages, and on
 * again, for good, once the site or the markdown to render turns out large.
 */
export function fitOptimizer({ pages, renderChars = 0 }: { pages?: number; renderChars?: number }): void {
  if (state.now === 'off' || state.now === 'large') return;
  if ((pages ?? 0) > LARGE_SITE || renderChars > LARGE_RENDER) {
    if (state.now === 'held') state.setFlag('--opt');
    state = { now: 'large', setFlag: state.setFlag };
  } else if (state.now === 'may' && pages !== undefined) {
    state.setFlag('--no-opt');
    state = { now: 'held', setFlag: state.setFlag };
  }
}

/** Gives the optimizing compiler back, if it was turned off, and leaves the compilers alone from now on. */
export function releaseOptimizer(): void {
  if (state.now === 'held') state.setFlag('--opt');
  state = { now: 'off' };
}
