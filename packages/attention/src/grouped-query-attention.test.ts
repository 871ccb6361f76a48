import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { less, logicalAnd, memory, randomNormal, randomUniform, tensor, tidy, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { maxDifference, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { kernelRoute } from '@attnkit/kernels';
import { causalMask, paddingMask } from '@attnkit/masks';
import { dotProductScorer } from '@attnkit/scorers';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { groupedQueryAttention } from './grouped-query-attention.js';
import { groupedQueryAttentionOutput } from './grouped-query-attention-output.js';
import { repeatKv } from './repeat-kv.js';
import { scaledDotProductAttention, type AttentionOptions } from './scaled-dot-product-attention.js';

const [B, H, HKV, T, S, D] = [2, 6, 2, 3, 5, 4];
const inputs = () => ({ q: randomNormal([B, H, T, D], 0, 1, 'float32', 1), k: randomNormal([B, HKV, S, D], 0, 1, 'float32', 2), v: randomNormal([B, HKV, S, D], 0, 1, 'float32', 3) });
/** Masks and biases of every placement the grouping must handle, made fresh (inside the caller's tidy). */
const PLACEMENTS: ReadonlyArray<[string, () => AttentionOptions]> = [
  ['no mask', () => ({})],
  ['padding [B, 1, 1, S]', () => ({ mask: paddingMask([5, 3], S) })],
  ['causal + padding [B, 1, T, S]', () => ({ mask: logicalAnd(paddingMask([5, 2], S), causalMask(T, S)) })],
  ['per-head mask [1, H, T, S]', () => ({ mask: less(randomUniform([1, H, T, S], 0, 1, 'float32', 4), 0.7) })],
  ['per-head, per-sequence mask [B, H, 1, S]', () => ({ mask: less(randomUniform([B, H, 1, S], 0, 1, 'float32', 5), 0.7) })],
  ['bias [T, S] and padding', () => ({ bias: randomNormal([T, S], 0, 1, 'float32', 6), mask: paddingMask([4, 5], S) })],
  ['per-head bias [1, H, T, S]', () => ({ bias: randomNormal([1, H, T, S], 0, 1, 'float32', 7) })],
  ['per-head bias [B, H, 1, S] with a row of no key', () => ({ bias: randomNormal([B, H, 1, S], 0, 1, 'float32', 8), mask: paddingMask([0, 5], S) })],
];

beforeAll(() => useBackend('cpu'));
afterAll(() => useBackend('cpu'));

describe('groupedQueryAttention', () => {
  it.each(['cpu', 'wasm'])('equals scaledDotProductAttention over repeatKv keys and values for every mask and bias placement (%s)', async (backend) => {
    await useBackend(backend);
    for (const [label, options] of PLACEMENTS) {
      const [ours, reference] = tidy(() => {
        const { q, k, v } = inputs();
        const o = options();
        const grouped = groupedQueryAttention(q, k, v, o);
        const repeated = scaledDotProductAttention(q, repeatKv(k, H / HKV), repeatKv(v, H / HKV), o);
        return [[grouped.output, grouped.attentionWeights], [repeated.output, repeated.attentionWeights]];
      });
      for (let i = 0; i < 2; i++) {
        expect(ours[i]!.shape, label).toEqual(reference[i]!.shape);
        expect(maxDifference(await ours[i]!.data(), await reference[i]!.data()).maxAbsDiff, label).toBeLessThan(1e-6);
      }
      [...ours, ...reference].forEach((t) => t.dispose());
    }
  });

  it.each(['cpu', 'wasm'])('groupedQueryAttentionOutput gives the same output (%s: the fused wasm attention where kernelRoute sends it)', async (backend) => {
    await useBackend(backend);
    const { q, k, v } = inputs();
    if (backend === 'wasm') expect(kernelRoute('fusedAttention', [q, k, v]).useKernel).toBe(true);
    for (const [label, options] of PLACEMENTS) {
      const [output, reference] = tidy(() => {
        const o = options();
        return [groupedQueryAttentionOutput(q, k, v, o), groupedQueryAttention(q, k, v, o).output];
      });
      expect(output.shape).toEqual([B, H, T, D]);
      expect(maxDifference(await output.data(), await reference.data()).maxAbsDiff, label).toBeLessThan(1e-5);
      [output, reference].forEach((t) => t.dispose());
    }
    [q, k, v].forEach((t) => t.dispose());
  });

  it('hands a custom scorer every head: keys and values repeated', async () => {
    await useBackend('cpu');
    const { q, k, v } = inputs();
    const [ours, reference] = tidy(() => [groupedQueryAttention(q, k, v, { scorer: dotProductScorer }).output, scaledDotProductAttention(q, repeatKv(k, 3), repeatKv(v, 3), { scorer: dotProductScorer }).output]);
    expect(maxDifference(await ours.data(), await reference.data()).maxAbsDiff).toBe(0);
    const output = groupedQueryAttentionOutput(q, k, v, { scorer: dotProductScorer });
    expect(maxDifference(await output.data(), await reference.data()).maxAbsDiff).toBeLessThan(1e-6);
    [q, k, v, ours, reference, output].forEach((t) => t.dispose());
  });

  it('leaks nothing, on cpu and wasm, with a mask and a bias', async () => {
    for (const backend of ['cpu', 'wasm']) {
      await useBackend(backend);
      const { q, k, v } = inputs();
      const [mask, bias] = [paddingMask([5, 3], S), randomNormal([1, H, T, S])];
      expect(await leaksOf(() => { const r = groupedQueryAttention(q, k, v, { mask, bias }); r.output.dispose(); r.attentionWeights.dispose(); })).toEqual({ tensors: 0, bytes: 0 });
      expect(await leaksOf(() => groupedQueryAttentionOutput(q, k, v, { mask, bias }).dispose())).toEqual({ tensors: 0, bytes: 0 });
      [q, k, v, mask, bias].forEach((t) => t.dispose());
    }
    await useBackend('cpu');
  });

  it('refuses inputs that do not group, masks that do not fit [B, H, T, S] and unknown options, with typed errors', () => {
    const before = memory().numTensors;
    const [q, k5, k2, v2, v3] = [zeros([B, H, T, D]), zeros([B, 5, S, D]), zeros([B, HKV, S, D]), zeros([B, HKV, S, D]), zeros([B, 3, S, D])];
    const [wide, scalarLike] = [zeros([B, 4, T, S], 'bool'), tensor([1])];
    const cases: Array<[() => unknown, string | RegExp]> = [
      [() => groupedQueryAttention(q, k5, v2), "groupedQueryAttention: 'key' must be [B, Hkv, S, D] with B = 2, D = 4 (from 'query') and Hkv dividing H = 6; received [2, 5, 5, 4]. Each key/value head serves H / Hkv query heads (num_attention_heads / num_key_value_heads)."],
      [() => groupedQueryAttentionOutput(q, k2, v3), "groupedQueryAttentionOutput: 'value' must be [B, Hkv, S, Dv] with B, Hkv, S = 2, 2, 5 (from 'query' and 'key'); received [2, 3, 5, 4]."],
      [() => groupedQueryAttention(q, k2, v2, { mask: wide }), /^groupedQueryAttention: 'mask' must be broadcastable to \[B, H, T, S\] = \[2, 6, 3, 5\]/],
      [() => groupedQueryAttention(q, k2, v2, { attentionMask: wide } as never), /^groupedQueryAttention: 'options' must be an object with only the keys mask, bias, scorer, dropout, training, seed; received the unknown key 'attentionMask'\. Did you mean 'mask'\?$/],
      [() => groupedQueryAttention(scalarLike, k2, v2), /^groupedQueryAttention: 'query' must be a float32 tensor of rank 4 \[B, H, T, D\]/],
    ];
    for (const [call, message] of cases) {
      const error = thrown(call);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      if (typeof message === 'string') expect(error.message).toBe(message);
      else expect(error.message).toMatch(message);
    }
    [q, k5, k2, v2, v3, wide, scalarLike].forEach((t: Tensor) => t.dispose());
    expect(memory().numTensors).toBe(before);
  });
});
