import { ones, zeros } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { multiHeadAttentionForward } from './multi-head-attention-forward.js';
import { MultiHeadAttention } from './multi-head-attention.js';

let mha: MultiHeadAttention;
beforeAll(async () => {
  await useBackend('cpu');
  mha = new MultiHeadAttention({ embedDim: 12, numHeads: 3, keyDim: 10, valueDim: 6, seed: 1 });
});
afterAll(() => mha.dispose());

describe('multi-head attention forward: bad inputs', () => {
  const cases: Array<[string, number[], number[], number[], object, string]> = [
    ['key and value lengths differ', [2, 5, 12], [2, 7, 10], [2, 6, 6], {}, "MultiHeadAttention.forward: 'value' must be as many positions as 'key' (S = 7): each key needs its value; received [2, 6, 6]."],
    ['batch sizes differ', [2, 5, 12], [3, 7, 10], [3, 7, 6], {}, "MultiHeadAttention.forward: 'key' must be the batch size of 'query' (2) on axis 0; received [3, 7, 10]."],
    ['query of the wrong width', [2, 5, 10], [2, 7, 10], [2, 7, 6], {}, "MultiHeadAttention.forward: 'query' must be a last dim of embedDim = 12; received [2, 5, 10]."],
    ['key of the wrong width', [2, 5, 12], [2, 7, 12], [2, 7, 6], {}, "MultiHeadAttention.forward: 'key' must be a last dim of keyDim = 10; received [2, 7, 12]."],
    ['value of the wrong width', [2, 5, 12], [2, 7, 10], [2, 7, 10], {}, "MultiHeadAttention.forward: 'value' must be a last dim of valueDim = 6; received [2, 7, 10]."],
    ['a rank-4 query', [2, 1, 5, 12], [2, 7, 10], [2, 7, 6], {}, "MultiHeadAttention.forward: 'query' must be a float32 tensor of rank 3 [B, T, E]; received float32 tensor of rank 4 [2, 1, 5, 12]."],
    ['an unknown returnWeights', [2, 5, 12], [2, 7, 10], [2, 7, 6], { returnWeights: 'mean' }, "MultiHeadAttention.forward: 'returnWeights' must be 'none', 'per-head' or 'averaged'; received mean."],
  ];
  it.each(cases)('%s', (_, qs, ks, vs, options, message) => {
    const [q, k, v] = [zeros(qs), zeros(ks), zeros(vs)];
    const error = thrown(() => mha.forward(q, k, v, options));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
    [q, k, v].forEach((t) => t.dispose());
  });

  it('a scorer that is none, named for the caller before any projection runs, leaking nothing', async () => {
    const [q, k, v] = [zeros([2, 5, 12]), zeros([2, 7, 10]), zeros([2, 7, 6])];
    const weights = new Map(mha.namedParameters().map(([name, p]) => [name, p as never]));
    const call = () => multiHeadAttentionForward('MyAttention.forward', weights, mha.config, { score: 3 } as never, { query: q, key: k, value: v });
    expect(thrown(call).message).toBe("MyAttention.forward: 'scorer' must be a Scorer (an object with a score(query, key) method returning [B, H, T, S]); received Object.");
    expect(await leaksOf(() => { thrown(call); })).toEqual({ tensors: 0, bytes: 0 });
    [q, k, v].forEach((t) => t.dispose());
  });

  it('a [B, S] padding mask, with the paddingMask() hint', () => {
    const [q, k, v] = [zeros([2, 5, 12]), zeros([2, 7, 10]), zeros([2, 7, 6])];
    const mask = ones([2, 7], 'bool');
    expect(thrown(() => mha.forward(q, k, v, { attentionMask: mask })).message).toBe(
      "MultiHeadAttention.forward: 'attentionMask' must be broadcastable to [B, H, T, S] = [2, 3, 5, 7] (read as [T, S]; each dimension 1 or equal); received [2, 7], whose dimension 0 (T) is 2, expected 1 or 5. A [B, S] padding mask must be expanded to [B, 1, 1, S]; use paddingMask() or paddingMaskFromIds().",
    );
    [q, k, v, mask].forEach((t) => t.dispose());
  });
});
