import { grad, mul, ones, softmax, sum, tensor, tensor1d, tensor2d, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareBackends, maxDifference, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { fixtureTensor, leaksOf, fixtureValues, specOf, thrown, type FixtureFile } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/masked-softmax.json' with { type: 'json' };
import { maskedSoftmax } from './masked-softmax.js';

const { cases } = fixtures as FixtureFile;
beforeAll(() => useBackend('cpu'));

describe('maskedSoftmax', () => {
  it.each(Object.keys(cases))('equals PyTorch (NaN rows -> 0, as _safe_softmax) within 1e-5 on cpu and wasm: %s', async (name) => {
    const { inputs, outputs } = cases[name]!;
    const scores = fixtureTensor(specOf(inputs, 'scores'));
    const mask = inputs['mask'] === undefined ? undefined : fixtureTensor(specOf(inputs, 'mask'));
    const expected = fixtureValues(specOf(outputs, 'probabilities'));
    const report = await compareBackends(() => maskedSoftmax(scores, mask), { backends: ['cpu', 'wasm'], tolerance: 1e-5, reference: { output: expected } });
    expect(report.ok).toBe(true);
    for (const backend of ['cpu', 'wasm']) {
      await useBackend(backend);
      const result = maskedSoftmax(scores, mask);
      const probabilities = await result.data();
      result.dispose();
      expect(probabilities.some(Number.isNaN)).toBe(false);
      expected.forEach((p, i) => { if (p === 0) expect(probabilities[i]).toBe(0); }); // blocked and fully masked: exact zeros
    }
    expect(await leaksOf(() => maskedSoftmax(scores, mask).dispose())).toEqual({ tensors: 0, bytes: 0 });
    scores.dispose();
    mask?.dispose();
  });

  it('rejects masks that do not fit and scores that are not float32', () => {
    const scores = zeros([2, 1, 3, 4]);
    const wide = ones([2, 1, 3, 5], 'bool');
    const bigger = ones([2, 2, 3, 4], 'bool');
    const additive = zeros([2, 1, 1, 4]);
    const ints = zeros([2, 4], 'int32');
    const cases: Array<[() => unknown, string]> = [
      [() => maskedSoftmax(scores, wide), "maskedSoftmax: 'mask' must be shapes that broadcast (each axis equal or 1, aligned from the last); received [2, 1, 3, 4] and [2, 1, 3, 5], which differ at axis -1 (4 vs 5)."],
      [() => maskedSoftmax(scores, bigger), "maskedSoftmax: 'mask' must be broadcastable to the scores' shape [2, 1, 3, 4] without enlarging it; received [2, 2, 3, 4]."],
      [() => maskedSoftmax(scores, additive), "maskedSoftmax: 'mask' must be a bool tensor; received float32 tensor of rank 4 [2, 1, 1, 4]. attnkit masks are bool, true = may attend. Convert PyTorch bool masks (True = blocked) with fromTorchBoolMask(), additive 0/-inf masks with fromAdditiveMask(), 0/1 attention_mask ids with paddingMaskFromIds()."],
      [() => maskedSoftmax(ints), "maskedSoftmax: 'scores' must be a float32 tensor of rank 1 or 2 or 3 or 4 or 5 or 6 [..., T, S]; received int32 tensor of rank 2 [2, 4]."],
    ];
    for (const [call, message] of cases) {
      const error = thrown(call);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe(message);
    }
    [scores, wide, bigger, additive, ints].forEach((t) => t.dispose());
  });

  it('gives NaN-free zeros for an all-padding batch even with extreme scores', async () => {
    const scores = tensor([[3e38, -3e38, 0]]);
    const none = tensor([[false, false, false]], [1, 3], 'bool');
    const result = maskedSoftmax(scores, none);
    expect(Array.from(await result.data())).toEqual([0, 0, 0]);
    [scores, result].forEach((t) => t.dispose());
    none.dispose();
  });
});

describe('maskedSoftmax gradients (composite, on cpu)', () => {
  it('equal tfjs softmax gradients where everything is allowed, are 0 at blocked entries, and equal the softmax of the allowed entries alone', async () => {
    await useBackend('cpu');
    const x = tensor2d([[0.5, -1, 2, 0.25], [3, 1, -2, 0.5]]);
    const w = tensor2d([[1, -2, 0.5, 3], [-1, 2, 1, 0.25]]);
    const all = tensor2d([[true, true, true, true], [true, true, true, true]], undefined, 'bool');
    const ours = grad((s: Tensor) => sum(mul(maskedSoftmax(s, all), w)))(x);
    const plain = grad((s: Tensor) => sum(mul(softmax(s), w)))(x);
    expect(maxDifference(await ours.data(), await plain.data()).maxAbsDiff).toBeLessThan(1e-6);
    const some = tensor2d([[true, false, true, true], [false, true, true, false]], undefined, 'bool');
    const masked = (await grad((s: Tensor) => sum(mul(maskedSoftmax(s, some), w)))(x).array()) as number[][];
    expect([masked[0]![1]!, masked[1]![0]!, masked[1]![3]!].map((v) => Math.abs(v))).toEqual([0, 0, 0]);
    const row0 = (await grad((s: Tensor) => sum(mul(softmax(s), tensor1d([1, 0.5, 3]))))(tensor1d([0.5, 2, 0.25])).array()) as number[];
    expect(maxDifference([masked[0]![0]!, masked[0]![2]!, masked[0]![3]!], row0).maxAbsDiff).toBeLessThan(1e-6);
  });

  it('without a mask: the softmax gradient, and 0 for a row of only -inf (a rank-4 input, as attention passes)', async () => {
    await useBackend('cpu');
    const x = tensor([0.5, -1, 2, 0.25, -Infinity, -Infinity, -Infinity, -Infinity], [1, 1, 2, 4]);
    const w = tensor([1, -2, 0.5, 3, -1, 2, 1, 0.25], [1, 1, 2, 4]);
    const ours = (await grad((s: Tensor) => sum(mul(maskedSoftmax(s), w)))(x).data());
    const row0 = await grad((s: Tensor) => sum(mul(softmax(s), tensor1d([1, -2, 0.5, 3]))))(tensor1d([0.5, -1, 2, 0.25])).data();
    expect(maxDifference(Array.from(ours).slice(0, 4), row0).maxAbsDiff).toBeLessThan(1e-6);
    expect(Array.from(ours).slice(4).map(Math.abs)).toEqual([0, 0, 0, 0]);
  });
});
