import { tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { maxDifference, useBackend } from '@attnkit/backends';
import { leaksOf } from '@attnkit/test-utils';
import { layerNorm } from './layer-norm.js';

beforeAll(() => useBackend('cpu'));

describe('layerNorm', () => {
  it('normalises each row with the biased variance and eps inside the root, then scales and shifts', async () => {
    const x = tensor([[1, 2, 3, 4], [10, 10, 10, 10]]);
    const [gamma, beta] = [tensor([1, 2, 1, 2]), tensor([0, 0, 1, 1])];
    const y = layerNorm(x, gamma, beta, 1e-12);
    const s = Math.sqrt(1.25); // biased variance of 1..4
    const expected = [-1.5 / s, (-0.5 / s) * 2, 0.5 / s + 1, (1.5 / s) * 2 + 1, 0, 0, 1, 1]; // a constant row normalises to 0
    expect(maxDifference(await y.data(), expected).maxAbsDiff).toBeLessThan(1e-6);
    expect(await leaksOf(() => layerNorm(x, gamma, beta, 1e-12).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [x, gamma, beta, y].forEach((t) => t.dispose());
  });
});
