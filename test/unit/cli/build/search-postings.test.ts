/**
 * The search index's postings by term as varint gaps (cli/build/search/postings.ts `DocRuns`): what is
 * counted, then placed in the same order, reads back exactly, whatever the gaps' sizes.
 */
import { describe, expect, it } from 'vitest';
import { DocRuns } from '../../../../cli/build/search/postings';

describe('the postings of each term, as the gaps between its documents', () => {
  it('read back the documents placed, for gaps of one to five bytes and terms of none to thousands', () => {
    // Documents 0 to 300,000,000 for five terms: every document for one, a few far apart for another.
    const docsOf: number[][] = [[], [], [], [], []];
    for (let doc = 0; doc < 5_000; doc++) docsOf[0]!.push(doc);
    for (const doc of [0, 127, 128, 16_383, 16_384, 2_097_151, 2_097_152, 268_435_455, 268_435_456, 300_000_000]) docsOf[1]!.push(doc);
    let doc = 3;
    for (let i = 0; i < 2_000; i++) docsOf[2]!.push((doc += 1 + ((i * 7919) % 40_000)));
    docsOf[4]!.push(299_999_999);
    // Counted and placed in document order, as the index meets them, with the terms grown on the way.
    const events = docsOf.flatMap((docs, id) => docs.map((doc) => [doc, id] as const)).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const runs = new DocRuns(2);
    runs.grow(docsOf.length);
    for (const [doc, id] of events) runs.count(id, doc);
    runs.allocate(docsOf.length);
    expect(runs.placed(docsOf.length)).toBe(false);
    for (const [doc, id] of events) runs.place(id, doc);
    expect(runs.placed(docsOf.length)).toBe(true);
    docsOf.forEach((docs, id) => expect([...runs.docs(id, docs.length)]).toEqual(docs));
    // A term read after a longer one gets its own documents, not the longer one's.
    expect([...runs.docs(0, 5_000)].slice(0, 3)).toEqual([0, 1, 2]);
    expect([...runs.docs(4, 1)]).toEqual([299_999_999]);
  });
});
