import { ones, tensor, zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { maxDifference, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { rmsNorm } from './rms-norm.js';

beforeAll(() => useBackend('cpu'));

describe('rmsNorm', () => {
  it('divides each row by the root of its mean square plus eps (no centring), then scales', async () => {
    const x = tensor([[1, 2, 3, 4], [0, 0, 0, 0]]);
    const weight = tensor([1, 2, 1, 0.5]);
    const rms = Math.sqrt((1 + 4 + 9 + 16) / 4 + 1e-6);
    const expected = [1 / rms, 4 / rms, 3 / rms, 2 / rms, 0, 0, 0, 0]; // a zero row stays 0 (eps keeps the root finite)
    const y = rmsNorm(x, weight, 1e-6);
    expect(maxDifference(await y.data(), expected).maxAbsDiff).toBeLessThan(1e-6);
    const plain = rmsNorm(x, undefined, 1e-6);
    expect((await plain.data())[1]).toBeCloseTo(2 / rms, 6);
    expect(await leaksOf(() => rmsNorm(x, weight, 1e-6).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [x, weight, y, plain].forEach((t) => t.dispose());
  });

  it('refuses a weight of another width, a bad eps and a non-float input with typed errors', () => {
    const [x, w] = [ones([2, 4]), ones([3])];
    expect(thrown(() => rmsNorm(x, w, 1e-6)).message).toBe("rmsNorm: 'weight' must be [E] with E = 4 (the last axis of 'x'); received [3].");
    for (const eps of [0, -1, Number.NaN, Infinity]) expect(thrown(() => rmsNorm(x, undefined, eps))).toBeInstanceOf(InvalidArgumentError);
    const ids = zeros([2, 4], 'int32');
    expect(thrown(() => rmsNorm(ids, undefined, 1e-6)).message).toMatch(/^rmsNorm: 'x' must be a float32 tensor \[\.\.\., E\]; received int32 tensor/);
    [x, w, ids].forEach((t) => t.dispose());
  });
});
