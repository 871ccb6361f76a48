import { tensor2d, zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTfjsBackend } from './testing/use-tfjs-backend.js';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { quantizeWeightPerChannel } from './quantize-weight-per-channel.js';

beforeAll(() => useTfjsBackend('cpu'));

describe('quantizeWeightPerChannel', () => {
  it('quantizes a [K, M] tensor per output column into [M, K] rows with scale max|w| / 127', () => {
    const w = tensor2d([[1, -0.5, 0], [-2, 0.25, 0], [0.5, 0.5, 0]]); // [K, M] = [3, 3], the last channel all zero
    const { values, scales, inFeatures, outFeatures } = quantizeWeightPerChannel(w);
    expect([inFeatures, outFeatures]).toEqual([3, 3]);
    expect(Array.from(scales)).toEqual([Math.fround(2 / 127), Math.fround(0.5 / 127), 0]);
    expect(Array.from(values)).toEqual([64, -127, 32, -127, 64, 127, 0, 0, 0]); // channel 0 = column 0: 1, -2, 0.5
    w.dispose();
  });

  it('takes PyTorch-layout values [M, K] and gives the same weight as the transposed tensor', () => {
    const w = tensor2d([[1, -0.5], [-2, 0.25], [0.5, 0.5]]); // [K, M] = [3, 2]
    const fromTensor = quantizeWeightPerChannel(w);
    const fromValues = quantizeWeightPerChannel({ values: [1, -2, 0.5, -0.5, 0.25, 0.5], inFeatures: 3, outFeatures: 2 });
    expect(fromValues).toEqual(fromTensor);
    w.dispose();
  });

  it('reconstructs every weight to within half a step (scale / 2) and leaks nothing', async () => {
    const values = Float32Array.from({ length: 64 * 48 }, (_, i) => Math.sin(i * 12.9898) * (1 + (i % 7)));
    const { values: q, scales } = quantizeWeightPerChannel({ values, inFeatures: 48, outFeatures: 64 });
    values.forEach((w, i) => expect(Math.abs(w - (q[i] as number) * (scales[Math.floor(i / 48)] as number))).toBeLessThanOrEqual((scales[Math.floor(i / 48)] as number) / 2 + 1e-7));
    const w = zeros([5, 3]);
    expect(await leaksOf(() => quantizeWeightPerChannel(w))).toEqual({ tensors: 0, bytes: 0 });
    w.dispose();
  });

  it.each([
    [() => quantizeWeightPerChannel(zeros([2, 3, 4])), "quantizeWeightPerChannel: 'weight' must be a float32 tensor of rank 2 [K, M] (in × out); received float32 tensor of rank 3 [2, 3, 4]."],
    [() => quantizeWeightPerChannel(zeros([2, 3], 'int32')), "quantizeWeightPerChannel: 'weight' must be a float32 tensor of rank 2 [K, M] (in × out); received int32 tensor of rank 2 [2, 3]."],
    [() => quantizeWeightPerChannel({ values: [1, 2, 3], inFeatures: 2, outFeatures: 2 }), "quantizeWeightPerChannel: 'values' must be a Float32Array or number[] [M, K] of length outFeatures·inFeatures = 2·2 = 4; received array [1,2,3]."],
    [() => quantizeWeightPerChannel({ values: [1, Infinity], inFeatures: 2, outFeatures: 1 }), "quantizeWeightPerChannel: 'values' must be finite values only (int8 quantization scales each row by its largest magnitude); received Infinity at flat index 1. Replace or mask the non-finite values first."],
    [() => quantizeWeightPerChannel({ values: [], inFeatures: -1, outFeatures: 0 }), "quantizeWeightPerChannel: 'inFeatures' must be an integer ≥ 0; received number -1."],
    [() => quantizeWeightPerChannel(null as never), "quantizeWeightPerChannel: 'weight' must be a float32 tensor [K, M] or { values: [M, K], inFeatures: K, outFeatures: M }; received null."],
  ])('refuses bad input %#', (call, message) => {
    const error = thrown(call);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });
});
