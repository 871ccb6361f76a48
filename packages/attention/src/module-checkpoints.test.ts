import { randomNormal, type Tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { maxDifference, useBackend } from '@attnkit/backends';
import { checkpointRefusals, leaksOf } from '@attnkit/test-utils';
import { HeadProjection } from './head-projection.js';
import { MultiHeadAttention } from './multi-head-attention.js';

beforeAll(() => useBackend('cpu'));

type Built = HeadProjection | MultiHeadAttention;
/** Each attention module with weights: how to build it, the keys its config gives it, and keys its config turns off. */
const MODULES: Array<[string, (checkpoint?: Map<string, Tensor>) => Built, Record<string, number[]>, Record<string, number[]>]> = [
  ['HeadProjection', (c) => new HeadProjection({ inputDim: 4, numHeads: 2, headDim: 3, seed: 1 }, c), { 'linear.weight': [6, 4], 'linear.bias': [6] }, {}],
  ['HeadProjection, bias: false', (c) => new HeadProjection({ inputDim: 4, numHeads: 2, headDim: 3, bias: false, seed: 1 }, c), { 'linear.weight': [6, 4] }, { 'linear.bias': [6] }],
  ['MultiHeadAttention', (c) => new MultiHeadAttention({ embedDim: 4, numHeads: 2, seed: 1 }, c), { in_proj_weight: [12, 4], in_proj_bias: [12], 'out_proj.weight': [4, 4], 'out_proj.bias': [4] }, {}],
  ['MultiHeadAttention, bias: false', (c) => new MultiHeadAttention({ embedDim: 4, numHeads: 2, bias: false, seed: 1 }, c), { in_proj_weight: [12, 4], 'out_proj.weight': [4, 4] }, { in_proj_bias: [12], 'out_proj.bias': [4] }],
  ['MultiHeadAttention, separate projections', (c) => new MultiHeadAttention({ embedDim: 4, numHeads: 2, keyDim: 5, valueDim: 3, seed: 1 }, c),
    { q_proj_weight: [4, 4], k_proj_weight: [4, 5], v_proj_weight: [4, 3], in_proj_bias: [12], 'out_proj.weight': [4, 4], 'out_proj.bias': [4] }, { in_proj_weight: [12, 4] }],
];

describe('attention modules built from a checkpoint', () => {
  it('covers every attention module with weights, with and without the parameters its config turns off', () => expect(MODULES).toHaveLength(5));

  it.each(MODULES)('%s: refuses unknown, missing, mis-shaped and turned-off keys in one StateDictError, leaving no tensor', (_, build, shapes, disabled) => {
    const { actual, expected } = checkpointRefusals(build, shapes, disabled);
    expect(actual).toEqual(expected);
  });

  it.each(MODULES)('%s: a checkpoint of its own state dict rebuilds it exactly; construct + dispose leaves nothing', async (_, build, shapes) => {
    const original = build();
    expect(original.namedParameters().map(([key, p]) => [key, p.shape])).toEqual(Object.entries(shapes));
    const copy = build(original.stateDict());
    const pairs = original.namedParameters().map(([key, p]) => [p, copy.stateDict().get(key)!] as const);
    for (const [a, b] of pairs) expect(maxDifference(await a.data(), await b.data()).maxAbsDiff).toBe(0);
    [original, copy].forEach((m) => m.dispose());
    expect(await leaksOf(() => build().dispose())).toEqual({ tensors: 0, bytes: 0 });
  });

  it('a rebuilt MultiHeadAttention gives the same output', async () => {
    const original = new MultiHeadAttention({ embedDim: 4, numHeads: 2, seed: 3 });
    const copy = new MultiHeadAttention({ embedDim: 4, numHeads: 2 }, original.stateDict());
    const x = randomNormal([2, 3, 4], 0, 1, 'float32', 1);
    const [a, b] = [original.forward(x).output, copy.forward(x).output];
    expect(maxDifference(await a.data(), await b.data()).maxAbsDiff).toBe(0);
    [x, a, b, original, copy].forEach((t) => t.dispose());
  });
});
