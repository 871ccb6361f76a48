import { ones, tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { fromAdditiveMask } from './additive-mask.js';

beforeAll(() => useBackend('cpu'));

describe('fromAdditiveMask', () => {
  it('reads 0 as attend and -inf, -1e9, finfo(float32).min, -1e4 as blocked', async () => {
    const additive = tensor([[0, -Infinity, -1e9], [-3.4028234663852886e38, 0, -1e4]]);
    const mask = fromAdditiveMask(additive);
    expect([mask.dtype, mask.shape, Array.from(await mask.data())]).toEqual(['bool', [2, 3], [1, 0, 0, 0, 1, 0]]);
    expect(await leaksOf(() => fromAdditiveMask(additive).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [additive, mask].forEach((t) => t.dispose());
  });

  it.each([
    [[0, 0.5], "fromAdditiveMask: 'additive' must be 0 (attend) or ≤ -10000 (blocked) everywhere; received 0.5 at flat index 1. Soft biases (ALiBi, relative positions) are not masks; add them to the scores instead."],
    [[-2, 0], "fromAdditiveMask: 'additive' must be 0 (attend) or ≤ -10000 (blocked) everywhere; received -2 at flat index 0. Soft biases (ALiBi, relative positions) are not masks; add them to the scores instead."],
    [[0, NaN], "fromAdditiveMask: 'additive' must be 0 (attend) or ≤ -10000 (blocked) everywhere; received NaN at flat index 1. Soft biases (ALiBi, relative positions) are not masks; add them to the scores instead."],
  ])('rejects %j (a bias, not a mask)', (values, message) => {
    const additive = tensor(values);
    const error = thrown(() => fromAdditiveMask(additive));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
    additive.dispose();
  });

  it('rejects a bool mask (nothing to convert)', () => {
    const mask = ones([2], 'bool');
    expect(thrown(() => fromAdditiveMask(mask)).message).toBe(
      "fromAdditiveMask: 'additive' must be a float32 tensor; received bool tensor of rank 1 [2]. A bool mask needs no conversion.",
    );
    mask.dispose();
  });
});

describe('fromAdditiveMask options', () => {
  it.each([
    [null, "fromAdditiveMask: 'options' must be an options object; received null."],
    [{ threshold: 5 }, "fromAdditiveMask: 'threshold' must be a number ≤ -1 (the largest value read as blocked); received number 5. A threshold near or above 0 would read soft bias values as blocked."],
    [{ threshold: -5n }, "fromAdditiveMask: 'threshold' must be a number ≤ -1 (the largest value read as blocked); received bigint -5n."],
    [{ threshold: Symbol('t') }, "fromAdditiveMask: 'threshold' must be a number ≤ -1 (the largest value read as blocked); received symbol t."],
    [{ treshold: -1e9 }, "fromAdditiveMask: 'options' must be an object with only the keys threshold; received the unknown key 'treshold'. Did you mean 'threshold'?"],
  ] as const)('refuses %#', async (options, message) => {
    const additive = tensor([0, -1e9]);
    const leaks = await leaksOf(() => {
      const error = thrown(() => fromAdditiveMask(additive, options as never));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe(message);
    });
    expect(leaks.tensors).toBe(0);
    additive.dispose();
  });
});
