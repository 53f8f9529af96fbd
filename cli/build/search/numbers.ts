/**
 * The numbers the search index's files give documents (search/format.ts `SearchMeta.documents`): page
 * after page, each page's run of numbers with room to grow, so that an edit which adds or removes a
 * section of one page leaves every other page's numbers, and with them the files that name them, as
 * they were. The index holds its documents without the room (one after another, state.ts); this
 * numbers them as its files do.
 */

/**
 * The document numbers a page of `documents` documents takes (search/format.ts `SearchMeta.documents`):
 * one more than it has, rounded up to a step that grows with them (2 up to 7 documents, 4 up to 15, 8
 * up to 63, then 16). A section added to a page (a document more) always fits, and mostly two or
 * three, or a section removed: the numbers of every later page's documents stay as they were, and with
 * them every shard, tail and document chunk the edit did not touch. (Without the room, a heading added
 * to one page of 10,000 remade the whole index, 1.3 s, and made every browser fetch it again.) An
 * edit past the room numbers the later pages' documents again, as every edit did before.
 */
export function slotsOf(documents: number): number {
  const step = documents < 8 ? 2 : documents < 16 ? 4 : documents < 64 ? 8 : 16;
  return Math.ceil((documents + 1) / step) * step;
}

/** The first document number of each page of `pageDocs` (each page's first document; one more entry, the number of documents), and one more entry, the number of document numbers. */
export function slotStarts(pageDocs: Int32Array, pages: number): Int32Array {
  const starts = new Int32Array(pages + 1);
  for (let page = 0; page < pages; page++) starts[page + 1] = starts[page]! + slotsOf(pageDocs[page + 1]! - pageDocs[page]!);
  return starts;
}

/** The numbers of a site's documents, from each page's first document (`pageDocs`) and first number (`pageSlots`), each with one more entry, the totals. */
export class DocumentNumbers {
  /** How many numbers there are, room included. */
  readonly count: number;
  private readonly numberOf: Int32Array;
  private readonly docOf: Int32Array;
  /** The numbers `numbered` hands out, kept from call to call. */
  private scratch = new Int32Array(1024);

  constructor(pageDocs: Int32Array, pageSlots: Int32Array) {
    const pages = pageDocs.length - 1;
    this.count = pageSlots[pages]!;
    this.numberOf = new Int32Array(pageDocs[pages]!);
    this.docOf = new Int32Array(this.count).fill(-1);
    for (let page = 0; page < pages; page++) {
      for (let doc = pageDocs[page]!, slot = pageSlots[page]!; doc < pageDocs[page + 1]!; doc++, slot++) {
        this.numberOf[doc] = slot;
        this.docOf[slot] = doc;
      }
    }
  }

  /** The document with number `slot` (-1 for room). */
  documentOf(slot: number): number {
    return this.docOf[slot]!;
  }

  /** The numbers of documents `docs`, in a view valid until the next call. */
  numbered(docs: Int32Array): Int32Array {
    if (this.scratch.length < docs.length) this.scratch = new Int32Array(docs.length * 2);
    for (let at = 0; at < docs.length; at++) this.scratch[at] = this.numberOf[docs[at]!]!;
    return this.scratch.subarray(0, docs.length);
  }
}
