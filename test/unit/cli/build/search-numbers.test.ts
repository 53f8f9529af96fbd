/**
 * The numbers the search index's files give documents (cli/build/search/numbers.ts): each page's run
 * leaves room for at least one more document, so a section added to a page moves no other page's.
 */
import { describe, expect, it } from 'vitest';
import { DocumentNumbers, slotsOf, slotStarts } from '../../../../cli/build/search/numbers';

describe('document numbers', () => {
  it('give every page room for one more document, more for a longer page, and never fewer numbers for more documents', () => {
    for (let documents = 1; documents <= 300; documents++) {
      expect(slotsOf(documents)).toBeGreaterThan(documents);
      expect(slotsOf(documents)).toBeGreaterThanOrEqual(slotsOf(documents - 1));
      expect(slotsOf(documents) - documents).toBeLessThanOrEqual(documents < 8 ? 2 : documents < 16 ? 4 : documents < 64 ? 8 : 16);
    }
    // A page of 14 blocks keeps its 16 numbers with a 15th; a 17th moves the pages after it.
    expect([slotsOf(14), slotsOf(15), slotsOf(16), slotsOf(17)]).toEqual([16, 16, 24, 24]);
  });

  it('number each page after the one before, and find the document of each number', () => {
    // Three pages of 1, 3 and 2 documents.
    const pageDocs = Int32Array.from([0, 1, 4, 6]);
    const starts = slotStarts(pageDocs, 3);
    expect([...starts]).toEqual([0, 2, 6, 10]);
    const numbers = new DocumentNumbers(pageDocs, starts);
    expect(numbers.count).toBe(10);
    expect([...numbers.numbered(Int32Array.from([0, 1, 2, 3, 4, 5]))]).toEqual([0, 2, 3, 4, 6, 7]);
    expect([0, 1, 2, 5, 6, 8, 9].map((slot) => numbers.documentOf(slot))).toEqual([0, -1, 1, -1, 4, -1, -1]);
  });
});
