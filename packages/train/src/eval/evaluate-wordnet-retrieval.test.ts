import { cast, oneHot, tensor1d, tidy, zeros, type Tensor2D } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { useBackend } from '@attnkit/backends';
import { leaksOf } from '@attnkit/test-utils';
import type { WordnetSynset } from '../data/wordnet-synset.js';
import { evaluateWordnetRetrieval } from './evaluate-wordnet-retrieval.js';

const rejection = (promise: Promise<unknown>) => promise.then(() => { throw new Error('expected a rejection'); }, (error: unknown) => error as Error);

const HELD_OUT: WordnetSynset[] = [
  { id: 'n1', pos: 'n', lemmas: ['dog', 'domestic dog'], definition: 'a domesticated canine', examples: ['the dog barked', 'walk the dog'] },
  { id: 'v1', pos: 'v', lemmas: ['breathe'], definition: 'draw air into the lungs', examples: ['breathe deeply'] },
  { id: 'a1', pos: 'a', lemmas: ['able'], definition: 'having the means', examples: [] },
];

/** One-hot embeddings by synset: each text embeds as its synset's axis (`swap` sends synset 0's queries to synset 1). */
function synsetEmbedder(calls: number[], swap = false) {
  const axis = new Map<string, number>();
  HELD_OUT.forEach((s, i) => {
    axis.set(s.definition, i);
    [s.lemmas.join(', '), ...s.examples].forEach((t) => axis.set(t, swap && i === 0 ? 1 : i));
  });
  return async (texts: string[]): Promise<Tensor2D> => {
    calls.push(texts.length);
    return tidy(() => cast(oneHot(tensor1d(texts.map((t) => axis.get(t) as number), 'int32'), 4), 'float32') as Tensor2D);
  };
}

describe('evaluateWordnetRetrieval', () => {
  beforeAll(() => useBackend('cpu'));

  it('embeds the definitions as corpus and the examples as queries, batchSize at a time, leaking nothing', async () => {
    const calls: number[] = [];
    let result;
    expect(await leaksOf(async () => (result = await evaluateWordnetRetrieval(synsetEmbedder(calls), HELD_OUT, { batchSize: 2 })))).toEqual({ tensors: 0, bytes: 0 });
    expect(result).toEqual({ recallAt1: 1, recallAt10: 1, mrr: 1, queries: 3, corpus: 3 });
    expect(calls).toEqual([2, 1, 2, 1]); // 3 definitions, then 3 examples
  });

  it('queries with lemma lists, and scores a wrong answer by its rank', async () => {
    expect(await evaluateWordnetRetrieval(synsetEmbedder([]), HELD_OUT, { queries: 'lemmas' })).toEqual({ recallAt1: 1, recallAt10: 1, mrr: 1, queries: 3, corpus: 3 });
    // synset 0's queries land on synset 1's definition: the right one (cosine 0) ties with synset 2's → rank 3
    expect(await evaluateWordnetRetrieval(synsetEmbedder([], true), HELD_OUT, { queries: 'examples' })).toEqual({ recallAt1: 1 / 3, recallAt10: 1, mrr: (1 / 3 + 1 / 3 + 1) / 3, queries: 3, corpus: 3 });
  });

  it('refuses an embed that returns the wrong shape, leaking nothing', async () => {
    const leaks = await leaksOf(async () => {
      const error = await rejection(evaluateWordnetRetrieval(async (texts) => zeros([texts.length + 1, 4]) as Tensor2D, HELD_OUT));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe("evaluateWordnetRetrieval: 'embed' must be a function returning a float32 tensor [N, E] for N texts (here [3, 4], for the definitions); received float32 [4, 4].");
    });
    expect(leaks).toEqual({ tensors: 0, bytes: 0 });
  });

  it.each([
    [{ queries: 'definitions' }, HELD_OUT, "evaluateWordnetRetrieval: 'queries' must be 'examples' or 'lemmas'; received string 'definitions'."],
    [{ query: 'lemmas' }, HELD_OUT, "evaluateWordnetRetrieval: 'options' must be an object with only the keys queries, batchSize; received the unknown key 'query'."],
    [{ batchSize: 0 }, HELD_OUT, "evaluateWordnetRetrieval: 'batchSize' must be an integer ≥ 1; received number 0."],
    [{}, [HELD_OUT[2]], "evaluateWordnetRetrieval: 'heldOut' must be synsets with at least one example to query with; received 1 synsets without any."],
  ] as const)('refuses bad input with a typed error (%#)', async (options, heldOut, message) => {
    const error = await rejection(evaluateWordnetRetrieval(synsetEmbedder([]), heldOut as WordnetSynset[], options as never));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });
});

describe('evaluateWordnetRetrieval null options', () => {
  it('refuses queries or batchSize null (null is no value; leave the option out for its default)', async () => {
    const embed = () => Promise.reject(new Error('not reached'));
    expect((await rejection(evaluateWordnetRetrieval(embed, HELD_OUT, { queries: null } as never))).message).toMatch(/^evaluateWordnetRetrieval: 'queries' must be 'examples' or 'lemmas'; received null/);
    expect((await rejection(evaluateWordnetRetrieval(embed, HELD_OUT, { batchSize: null } as never))).message).toMatch(/^evaluateWordnetRetrieval: 'batchSize' must be an integer ≥ 1; received null/);
  });
});
