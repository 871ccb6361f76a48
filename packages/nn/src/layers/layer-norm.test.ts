import { ones } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { LayerNorm } from './layer-norm.js';

beforeAll(() => useBackend('cpu'));

describe('LayerNorm', () => {
  it('starts as weight = 1, bias = 0 and checks eps and the input width', async () => {
    const norm = new LayerNorm(3, { eps: 1e-12 });
    expect(Array.from(await norm.weight!.data())).toEqual([1, 1, 1]);
    expect(Array.from(await norm.bias!.data())).toEqual([0, 0, 0]);
    const x = ones([2, 4]);
    expect(thrown(() => norm.forward(x)).message).toBe("LayerNorm.forward: 'x' must be a float32 tensor [..., normalizedShape] with normalizedShape = 3; received [2, 4].");
    for (const eps of [0, -1, Number.NaN, Infinity]) expect(thrown(() => new LayerNorm(3, { eps }))).toBeInstanceOf(InvalidArgumentError);
    x.dispose();
    norm.dispose();
  });
});

describe('LayerNorm options', () => {
  it.each([
    [null, "LayerNorm: 'options' must be an options object; received null."],
    [{ elementwiseAffine: 0 }, "LayerNorm: 'elementwiseAffine' must be true or false; received number 0."],
    [{ epsilon: 1e-12 }, "LayerNorm: 'options' must be an object with only the keys eps, elementwiseAffine; received the unknown key 'epsilon'. Did you mean 'eps'?"],
  ] as const)('refuses %j with a typed error, leaking nothing', async (options, message) => {
    const leaks = await leaksOf(() => {
      const error = thrown(() => new LayerNorm(3, options as never));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe(message);
    });
    expect(leaks.tensors).toBe(0);
  });
});
