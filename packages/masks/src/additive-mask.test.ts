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
