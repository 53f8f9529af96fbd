/**
 * The main thread's heap growth once the render workers are gone (cli/build/main-heap.ts
 * `limitHeapGrowth`): limited for a large heap, where the 100,000-page build's memory is at stake,
 * left to V8 for a small one, where the limit only cost a one-page edit a full collection more.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

const v8 = vi.hoisted(() => ({ used: 0, flags: [] as string[] }));
vi.mock('node:v8', async (original) => {
  const actual = await original<typeof import('node:v8')>();
  return {
    ...actual,
    getHeapStatistics: () => ({ ...actual.getHeapStatistics(), used_heap_size: v8.used }),
    setFlagsFromString: (flags: string) => void v8.flags.push(flags),
  };
});

const { limitHeapGrowth } = await import('../../../../cli/build/main-heap');

describe('limitHeapGrowth', () => {
  afterEach(() => {
    v8.flags.length = 0;
  });

  it('leaves a heap of some 140 MB (a 10,000-page edit) to V8, and limits one of 435 MB (100,000 pages)', () => {
    v8.used = 140 * 2 ** 20;
    limitHeapGrowth();
    expect(v8.flags).toEqual([]);
    v8.used = 435 * 2 ** 20;
    limitHeapGrowth();
    expect(v8.flags).toEqual(['--heap-growing-percent=25']);
  });
});
