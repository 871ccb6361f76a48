import { ones, zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { checkBoolMask } from './check-bool-mask.js';

beforeAll(() => useBackend('cpu'));

describe('checkBoolMask', () => {
  it('passes bool tensors through and checks the rank when asked', () => {
    const mask = ones([2, 3], 'bool');
    expect(checkBoolMask(mask, 'f')).toBe(mask);
    expect(thrown(() => checkBoolMask(mask, 'f', 'mask', 4)).message).toBe("f: 'mask' must be a bool tensor of rank 4; received bool tensor of rank 2 [2, 3].");
    mask.dispose();
  });
  it('explains the three usual wrong conventions', () => {
    const float = zeros([2]);
    const error = thrown(() => checkBoolMask(float, 'f'));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(
      "f: 'mask' must be a bool tensor; received float32 tensor of rank 1 [2]. attnkit masks are bool, true = may attend. Convert PyTorch bool masks (True = blocked) with fromTorchBoolMask(), additive 0/-inf masks with fromAdditiveMask(), 0/1 attention_mask ids with paddingMaskFromIds().",
    );
    float.dispose();
  });
  it('checks the rank it is asked for: an integer or a non-empty list of them', () => {
    const mask = ones([2, 3], 'bool');
    for (const rank of [null, Number.NaN, 'x', [], [2, , 3], -1]) { // eslint-disable-line no-sparse-arrays
      const error = thrown(() => checkBoolMask(mask, 'f', 'mask', rank as never));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toMatch(/^checkBoolMask: 'rank' must be a rank \(an integer ≥ 0\) or a non-empty list of ranks; received /);
    }
    expect(checkBoolMask(mask, 'f', 'mask', [1, 2])).toBe(mask);
    mask.dispose();
  });
});
