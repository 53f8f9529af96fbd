/**
 * What the query engine's `prepare` (engine.ts) runs a query over, so that a reader's first query
 * does not pay for compiling the query code.
 */
import type { SearchChunk, SearchMeta, SearchShard } from './format';

/**
 * A two-document index in memory, for `prepare`: enough for a query to pass through every step (stems,
 * prefix, typo, scoring, tails, excerpts).
 */
export const SAMPLE: Record<string, unknown> = {
  'index.json': { version: 1, documents: 2, shards: { v: 't-v', r: 't-r' }, split: [], chunks: ['d-0'], chunkSize: 32, sections: ['Wiki'] } satisfies SearchMeta,
  't-v': { terms: { vergadering: [0, 60, 1, 30], vergaderingen: [1, 50] }, docs: [0, 0, '', '', 1, 0, 'b', 'Vergaderingen'], pages: [0, '/a', 'Één vergadering', 0, ''] } satisfies SearchShard,
  't-r': { terms: { rotation: [0, 40], rotate: [1, 20] }, tails: { rotation: ['p-r', 3] } } satisfies SearchShard,
  'p-r': [1, 10],
  'd-0': {
    pages: { 0: { route: '/a', title: 'Één vergadering', section: 'Wiki' } },
    docs: [
      [0, '', '', 'De vergadering over de rotation van de sleutels.'],
      [0, 'b', 'Vergaderingen', 'Rotate the key after every vergadering.'],
    ],
  } satisfies SearchChunk,
};

/**
 * Words that take the English (Porter) and Dutch stemmers through their rules, so that each of their
 * patterns is compiled when the dialog opens and not on the reader's first query (4 ms in Chromium).
 */
export const STEMMER_WORDS = (
  'caresses ponies cats feed agreed plastered motoring conflated troubled sized hopping falling filing happy ' +
  'relational conditional valenci hesitanci digitizer conformabli radicalli differentli vileli analogousli ' +
  'vietnamization predication operator feudalism decisiveness hopefulness callousness formaliti sensitiviti ' +
  'sensibiliti triplicate formative formalize electriciti electrical goodness revival allowance inference ' +
  'airliner gyroscopic adjustable defensible irritant replacement adjustment dependent adoption homologou ' +
  'communism activate angulariti homologous effective bowdlerize probate rate cease controll roll generate ' +
  'lichamelijk lichamelijke opheffing vergaderingen bedrijven heden gelukkig mogelijkheden kinderen ' +
  'aanbieding wetenschappelijke betalingen veranderd gebruikers ontwikkelaars'
).split(' ');
