import { ones, type Tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { UseAfterDisposeError } from '@attnkit/errors';
import { checkpointRefusals, leaksOf, thrown } from '@attnkit/test-utils';
import { AdditiveScorer } from './additive-scorer.js';
import { BilinearScorer } from './bilinear-scorer.js';
import { SelfAttentionScorer } from './self-attention-scorer.js';

beforeAll(() => useBackend('cpu'));

type Build = (checkpoint?: Map<string, Tensor>) => AdditiveScorer | BilinearScorer | SelfAttentionScorer;
/** Each scorer with weights: how to build it, the keys its config gives it, and the keys its config turns off. */
const SCORERS: Array<[string, Build, Record<string, number[]>, Record<string, number[]>]> = [
  ['AdditiveScorer, bias: true', (c) => new AdditiveScorer({ queryDim: 3, keyDim: 4, hiddenDim: 5, bias: true, seed: 1 }, c), { 'W_q.weight': [5, 3], 'W_k.weight': [5, 4], 'W_k.bias': [5], 'w.weight': [1, 5] }, {}],
  ['AdditiveScorer, bias: false', (c) => new AdditiveScorer({ queryDim: 3, keyDim: 4, hiddenDim: 5, seed: 1 }, c), { 'W_q.weight': [5, 3], 'W_k.weight': [5, 4], 'w.weight': [1, 5] }, { 'W_k.bias': [5] }],
  ['BilinearScorer', (c) => new BilinearScorer({ queryDim: 3, keyDim: 4, seed: 1 }, c), { weight: [3, 4] }, {}],
  ['SelfAttentionScorer', (c) => new SelfAttentionScorer({ embedDim: 4, projectionDim: 3, seed: 1 }, c), { 'W_q.weight': [3, 4], 'W_k.weight': [3, 4] }, {}],
];

describe('scorers with weights are nn modules whose keys are the checkpoint keys', () => {
  it('covers every scorer with weights', () => expect(SCORERS).toHaveLength(4));

  it.each(SCORERS)('%s: loads a checkpoint that fits, key for key', async (_, build, shapes) => {
    const checkpoint = new Map(Object.entries(shapes).map(([key, shape]) => [key, ones(shape)]));
    const scorer = build(checkpoint);
    expect([...scorer.stateDict()].map(([key, value]) => [key, value.shape])).toEqual(Object.entries(shapes));
    expect((await Promise.all(scorer.parameters().map((p) => p.data()))).every((values) => values.every((v) => v === 1))).toBe(true);
    checkpoint.forEach((t) => t.dispose());
    scorer.dispose();
  });

  it.each(SCORERS)('%s: refuses unknown, missing, mis-shaped and turned-off keys in one StateDictError, leaving no tensor', (_, build, shapes, disabled) => {
    const { actual, expected } = checkpointRefusals(build, shapes, disabled);
    expect(actual).toEqual(expected);
  });

  it.each(SCORERS)('%s: construct + dispose leaves no tensor; later use throws UseAfterDisposeError', async (_, build) => {
    expect(await leaksOf(() => build().dispose())).toEqual({ tensors: 0, bytes: 0 });
    const scorer = build();
    scorer.dispose();
    for (const use of [() => scorer.parameters(), () => scorer.stateDict(), () => scorer.dispose()]) expect(thrown(use)).toBeInstanceOf(UseAfterDisposeError);
  });
});
