import { tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { splitAdditiveMask } from './split-additive-mask.js';

beforeAll(() => useBackend('cpu'));

describe('splitAdditiveMask', () => {
  it('blocks exactly the -Infinity entries, keeps soft values as bias, and raises finfo.min to the fill value', async () => {
    const additive = tensor([[0, -0.77, -Infinity], [-3.4028234663852886e38, 2.5, Number.NaN]]);
    const { mask, bias } = splitAdditiveMask(additive);
    expect(mask.dtype).toBe('bool');
    expect(await mask.array()).toEqual([[1, 1, 0], [1, 1, 1]]);
    expect(Array.from(await bias.data())).toEqual([0, Math.fround(-0.77), 0, -1e9, 2.5, Number.NaN]);
    expect(await leaksOf(() => Object.values(splitAdditiveMask(additive)).forEach((t) => t.dispose()))).toEqual({ tensors: 0, bytes: 0 });
    [additive, mask, bias].forEach((t) => t.dispose());
  });

  it('refuses a bool mask with the converter to use instead', () => {
    const bool = tensor([true], undefined, 'bool');
    const error = thrown(() => splitAdditiveMask(bool));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toMatch(/^splitAdditiveMask: 'additive' must be a float32 tensor; received bool .* use fromTorchBoolMask\(\) for PyTorch bool masks\.$/);
    bool.dispose();
  });
});
