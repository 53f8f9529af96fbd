import { afterEach, describe, expect, it } from 'vitest';
import { fitOptimizer, LARGE_RENDER, LARGE_SITE, mayHoldOptimizer, releaseOptimizer } from '../../../../cli/build/optimizer';

describe('optimizer: V8 optimizing compiler off for a small build, untouched for a large one', () => {
  const flags: string[] = [];
  const setFlag = (flag: string): void => void flags.push(flag);
  afterEach(() => {
    releaseOptimizer();
    flags.length = 0;
  });

  it('turns it off once the site is known small, and on again for good when the markdown to render is large', () => {
    mayHoldOptimizer(setFlag, []);
    fitOptimizer({});
    fitOptimizer({ renderChars: LARGE_RENDER });
    expect(flags).toEqual([]);
    fitOptimizer({ pages: LARGE_SITE });
    fitOptimizer({ pages: 3 });
    expect(flags).toEqual(['--no-opt']);
    fitOptimizer({ renderChars: LARGE_RENDER + 1 });
    expect(flags).toEqual(['--no-opt', '--opt']);
    // Large for the rest of the build: a small count later changes nothing.
    fitOptimizer({ pages: 3 });
    releaseOptimizer();
    expect(flags).toEqual(['--no-opt', '--opt']);
  });

  it('never touches it for a large site, and gives it back when the build ends', () => {
    mayHoldOptimizer(setFlag, []);
    fitOptimizer({ pages: LARGE_SITE + 1 });
    fitOptimizer({ pages: 3 });
    expect(flags).toEqual([]);
    releaseOptimizer();
    mayHoldOptimizer(setFlag, []);
    fitOptimizer({ pages: 3 });
    releaseOptimizer();
    expect(flags).toEqual(['--no-opt', '--opt']);
  });

  it('leaves the compilers alone unless the command allows it, or when Node was told how to use them', () => {
    fitOptimizer({ pages: 3 });
    for (const given of [['--opt'], ['--no-opt'], ['--max-opt=2'], ['--turbofan'], ['--no-maglev'], ['--always-opt']]) {
      mayHoldOptimizer(setFlag, given);
      fitOptimizer({ pages: 3 });
    }
    expect(flags).toEqual([]);
    // Other flags do not count.
    mayHoldOptimizer(setFlag, ['--heap-growing-percent=25', '--optimize-for-size', '--max-old-space-size=4096']);
    fitOptimizer({ pages: 3 });
    expect(flags).toEqual(['--no-opt']);
  });
});
