import { matMul, tensor, transpose, zeros, add, reshape } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { maxDifference, useBackend } from '@attnkit/backends';
import { InvalidArgumentError, UseAfterDisposeError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { HeadProjection } from './head-projection.js';

beforeAll(() => useBackend('cpu'));

describe('HeadProjection', () => {
  it("is labml's linear E -> H·D then view [..., H, D], for batch-first and seq-first inputs", async () => {
    const projection = new HeadProjection({ inputDim: 4, numHeads: 2, headDim: 3, seed: 5 });
    const weight = projection.namedWeights.get('linear.weight')!;
    const bias = projection.namedWeights.get('linear.bias')!;
    bias.assign(tensor([1, 2, 3, 4, 5, 6]));
    for (const shape of [[2, 5, 4], [5, 2, 4], [4]]) {
      const x = tensor(Array.from({ length: shape.reduce((a, b) => a * b) }, (_, i) => Math.sin(i)), shape);
      const out = projection.call(x);
      expect(out.shape).toEqual([...shape.slice(0, -1), 2, 3]);
      const expected = reshape(add(matMul(reshape(x, [-1, 4]), transpose(weight)), bias), out.shape);
      expect(maxDifference(await out.data(), await expected.data()).maxAbsDiff).toBeLessThan(1e-6);
      [x, out, expected].forEach((t) => t.dispose());
    }
    const x = zeros([2, 5, 4]);
    expect(await leaksOf(() => projection.call(x).dispose())).toEqual({ tensors: 0, bytes: 0 });
    x.dispose();
    projection.dispose();
    expect(thrown(() => projection.call(zeros([1, 4])))).toBeInstanceOf(UseAfterDisposeError);
  });
  it('has no bias when asked, and rejects inputs of the wrong width', () => {
    const projection = new HeadProjection({ inputDim: 4, numHeads: 2, headDim: 3, bias: false, seed: 5 });
    expect([...projection.namedWeights.keys()]).toEqual(['linear.weight']);
    const x = zeros([2, 5, 3]);
    const error = thrown(() => projection.call(x));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("HeadProjection.call: 'x' must be a last dim of inputDim = 4; received [2, 5, 3].");
    x.dispose();
    projection.dispose();
  });
});
