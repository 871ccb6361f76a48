import { tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { paddingMask } from './padding-mask.js';
import { fromTorchBoolMask, toTorchBoolMask } from './torch-bool-mask.js';

beforeAll(() => useBackend('cpu'));

describe('fromTorchBoolMask / toTorchBoolMask', () => {
  it('flips the convention: PyTorch True = blocked, attnkit true = may attend, and round-trips', async () => {
    const keyPaddingMask = tensor([[false, false, true]], [1, 3], 'bool'); // torch: last token is padding
    const ours = fromTorchBoolMask(keyPaddingMask);
    expect(Array.from(await ours.data())).toEqual([1, 1, 0]);
    const back = toTorchBoolMask(ours);
    expect(Array.from(await back.data())).toEqual(Array.from(await keyPaddingMask.data()));
    const pad = paddingMask([2], 3);
    expect(Array.from(await toTorchBoolMask(pad).data())).toEqual([0, 0, 1]);
    expect(await leaksOf(() => fromTorchBoolMask(keyPaddingMask).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [keyPaddingMask, ours, back, pad].forEach((t) => t.dispose());
  });

  it('rejects float masks (a float attn_mask is additive: use fromAdditiveMask)', () => {
    const additive = tensor([[0, -Infinity]]);
    const error = thrown(() => fromTorchBoolMask(additive));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toMatch(/^fromTorchBoolMask: 'torchMask' must be a bool tensor; received float32 tensor of rank 2 \[1, 2\]\. .*fromAdditiveMask\(\)/);
    additive.dispose();
  });
});
