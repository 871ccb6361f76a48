import { matMul, memory, tensor, transpose, zeros, add, reshape } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { maxDifference, useBackend } from '@attnkit/backends';
import { InvalidArgumentError, UseAfterDisposeError } from '@attnkit/errors';
import { StateDictError } from '@attnkit/nn';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { HeadProjection } from './head-projection.js';

beforeAll(() => useBackend('cpu'));

describe('HeadProjection', () => {
  it("is labml's linear E -> H·D then view [..., H, D], for batch-first and seq-first inputs", async () => {
    const projection = new HeadProjection({ inputDim: 4, numHeads: 2, headDim: 3, seed: 5 });
    const weight = projection.linear.weight;
    const bias = projection.linear.bias!;
    bias.assign(tensor([1, 2, 3, 4, 5, 6]));
    for (const shape of [[2, 5, 4], [5, 2, 4], [4]]) {
      const x = tensor(Array.from({ length: shape.reduce((a, b) => a * b) }, (_, i) => Math.sin(i)), shape);
      const out = projection.forward(x);
      expect(out.shape).toEqual([...shape.slice(0, -1), 2, 3]);
      const expected = reshape(add(matMul(reshape(x, [-1, 4]), transpose(weight)), bias), out.shape);
      expect(maxDifference(await out.data(), await expected.data()).maxAbsDiff).toBeLessThan(1e-6);
      [x, out, expected].forEach((t) => t.dispose());
    }
    const x = zeros([2, 5, 4]);
    expect(await leaksOf(() => projection.forward(x).dispose())).toEqual({ tensors: 0, bytes: 0 });
    x.dispose();
    projection.dispose();
    expect(thrown(() => projection.forward(zeros([1, 4])))).toBeInstanceOf(UseAfterDisposeError);
  });
  it('has no bias when asked, and rejects inputs of the wrong width', () => {
    const projection = new HeadProjection({ inputDim: 4, numHeads: 2, headDim: 3, bias: false, seed: 5 });
    expect(projection.namedParameters().map(([key]) => key)).toEqual(['linear.weight']);
    const x = zeros([2, 5, 3]);
    const error = thrown(() => projection.forward(x));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("HeadProjection.forward: 'x' must be a last dim of inputDim = 4; received [2, 5, 3].");
    x.dispose();
    projection.dispose();
  });

  it('refuses a checkpoint with a bias it does not have, a misspelled weight and the old weights option, leaving no tensor', () => {
    const [weight, bias] = [zeros([6, 4]), zeros([6])];
    const before = memory().numTensors;
    const error = thrown(() => new HeadProjection({ inputDim: 4, numHeads: 2, headDim: 3, bias: false }, { 'linear.weigth': weight, 'linear.bias': bias }));
    expect(error).toBeInstanceOf(StateDictError);
    expect(error.message).toBe(
      'HeadProjection: the state dict does not fit the module. 1 missing: linear.weight. 2 unexpected: linear.weigth, linear.bias. For its config, this HeadProjection has linear.weight [6, 4].',
    );
    expect(thrown(() => new HeadProjection({ inputDim: 4, numHeads: 2, headDim: 3, weights: { 'linear.weight': weight } } as never)).message).toBe(
      "HeadProjection: 'config' must be an object with only the keys inputDim, numHeads, headDim, bias, seed; received the unknown key 'weights'.",
    );
    expect(memory().numTensors).toBe(before);
    [weight, bias].forEach((t) => t.dispose());
  });
});
