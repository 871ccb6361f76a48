import { ones, scalar, tensor, zeros } from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from '@attnkit/errors';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareBackends, useBackend } from '@attnkit/backends';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { linear } from './linear.js';

beforeAll(() => useBackend('cpu'));

describe('linear', () => {
  it('computes x Wᵀ + b for any leading shape, on cpu and wasm (whose fused kernel attnkit fixes)', async () => {
    const x = tensor([1, 2, 3, 4, 5, 6, 7, 8], [2, 2, 2]); // [B, T, in]
    const weight = tensor([[1, 0], [0, 1], [1, -1]]); // [out 3, in 2]
    const bias = tensor([10, 20, 30]);
    const expected = [[1, 2], [3, 4], [5, 6], [7, 8]].flatMap(([p, q]) => [p! + 10, q! + 20, p! - q! + 30]);
    const report = await compareBackends(() => linear(x, weight, bias), { backends: ['cpu', 'wasm'], tolerance: 0, reference: { output: expected } });
    expect(report.ok).toBe(true);
    expect(report.results[0]?.outputs[0]?.shape).toEqual([2, 2, 3]);
    expect(await leaksOf(() => linear(x, weight).dispose())).toEqual({ tensors: 0, bytes: 0 });
    const none = linear(x, weight);
    expect(Array.from(await none.data())).toEqual(expected.map((v, i) => v - [10, 20, 30][i % 3]!));
    [x, weight, bias, none].forEach((t) => t.dispose());
  });
  it('keeps a rank-1 input rank-1', () => {
    const x = zeros([4]);
    const weight = zeros([2, 4]);
    const y = linear(x, weight);
    expect(y.shape).toEqual([2]);
    [x, weight, y].forEach((t) => t.dispose());
  });
});

describe('linear shape checks', () => {
  it.each([
    [() => [ones([1, 3]), ones([2, 3]), ones([5])], "linear: 'bias' must be a float32 tensor [out] with out = 2 (weight is [out, in] = [2, 3]); received [5]."],
    [() => [scalar(1), ones([2, 3])], "linear: 'x' must be a float32 tensor [..., in] with in = 3 (weight is [out, in] = [2, 3]); received rank 0 []."],
    [() => [ones([1, 4]), ones([2, 3])], "linear: 'x' must be a float32 tensor [..., in] with in = 3 (weight is [out, in] = [2, 3]); received rank 2 [1, 4]."],
    [() => [ones([2, 0]), ones([3, 0])], "linear: 'weight' must be a float32 tensor [out, in] with out ≥ 1 and in ≥ 1; received [3, 0]."],
  ] as const)('refuses mismatched shapes with a typed error (%#), leaking nothing', async (make, message) => {
    const inputs = make();
    const leaks = await leaksOf(() => {
      const error = thrown(() => linear(...(inputs as unknown as Parameters<typeof linear>)));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe(message);
    });
    expect(leaks.tensors).toBe(0);
    inputs.forEach((t) => t.dispose());
  });

  it('takes an empty batch [0, in]', () => {
    const y = linear(zeros([0, 3]), ones([2, 3]), ones([2]));
    expect(y.shape).toEqual([0, 2]);
    y.dispose();
  });
});
