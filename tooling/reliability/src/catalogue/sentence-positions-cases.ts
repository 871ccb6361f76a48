import { zeros, type Tensor } from '@tensorflow/tfjs-core';
import { semanticSearch } from '@attnkit/sentence';
import type { CatalogueCase } from './catalogue-case.js';
import { variants, type ValidCall } from './positions-cases.js';

/** The sentence package's tensor calls (async: read with data()), every position and option key; Node only (the Chromium catalogue keeps to the tensor blocks' packages). */
const VALID_CALLS: readonly ValidCall[] = [
  { name: 'sentence.semanticSearch', args: () => [zeros([2, 4]), zeros([5, 4]), { topK: 2 }], call: ([q, c, o]) => semanticSearch(q as Tensor, c as Tensor, o as never), optional: [2],
    options: { index: 2, keys: ['topK', 'scoreFunction', 'queryChunkSize', 'corpusChunkSize'] } },
];

/** `semanticSearch` given each hostile value at each argument and option key, the others valid. */
export const sentencePositionsCases: CatalogueCase[] = VALID_CALLS.flatMap(variants);
