import { ones, tensor, zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { checkAttentionBias } from './check-attention-bias.js';

beforeAll(() => useBackend('cpu'));
const target = { batch: 2, heads: 3, queryLength: 4, keyLength: 5 };

describe('checkAttentionBias', () => {
  it('places [T, S] as [1, 1, T, S] and passes broadcastable rank-4 biases through', () => {
    const plain = ones([4, 5]);
    const placed = checkAttentionBias(plain, target, 'f');
    expect(placed.shape).toEqual([1, 1, 4, 5]);
    const perHead = zeros([1, 3, 4, 5]);
    expect(checkAttentionBias(perHead, target, 'f')).toBe(perHead);
    [plain, placed, perHead].forEach((t) => t.dispose());
  });

  it.each([
    [[5], "f: 'bias' must be a float32 tensor of rank 2 or 4 [T, S] or [B|1, H|1, T|1, S|1]; received float32 tensor of rank 1 [5]."],
    [[3, 4, 5], "f: 'bias' must be a float32 tensor of rank 2 or 4 [T, S] or [B|1, H|1, T|1, S|1]; received float32 tensor of rank 3 [3, 4, 5]."],
    [[2, 2, 4, 5], "f: 'bias' must be broadcastable to [B, H, T, S] = [2, 3, 4, 5] (each dimension 1 or equal); received [2, 2, 4, 5]. A per-head bias is [1, H, T, S]; a per-sequence one [B, 1, T, S]."],
    [[5, 4], "f: 'bias' must be broadcastable to [B, H, T, S] = [2, 3, 4, 5] (rank 2 is [T, S]); received [5, 4]. A per-head bias is [1, H, T, S]; a per-sequence one [B, 1, T, S]."],
  ])('refuses shape %j, naming what it expected', (shape, message) => {
    const bias = zeros(shape);
    const error = thrown(() => checkAttentionBias(bias, target, 'f'));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
    bias.dispose();
  });

  it('refuses a rank-2 bias whose first dimension is both B and T: a [B, S] bias would be read as [T, S]', () => {
    const perSequence = zeros([2, 5]);
    const error = thrown(() => checkAttentionBias(perSequence, { ...target, queryLength: 2 }, 'f'));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toMatch(/^f: 'bias' must be an unambiguous layout: with B = T = 2, a rank-2 \[2, 5\] could be \[T, S\] or a \[B, S\] padding mask; received rank 2 \[2, 5\]\. Pass \[1, 1, T, S\]/);
    perSequence.dispose();
  });

  it('refuses a bool tensor: that is a mask', () => {
    const mask = tensor([[true]], undefined, 'bool');
    expect(thrown(() => checkAttentionBias(mask, target, 'f')).message).toMatch(/A bool tensor is a mask: pass it as the mask, not the bias\.$/);
    mask.dispose();
  });
  it('refuses target sizes that are no integers, naming the size', () => {
    const bias = zeros([3, 5]);
    expect(thrown(() => checkAttentionBias(bias, {} as never, 'f')).message).toBe("checkAttentionBias: 'target.batch' must be an integer ≥ 0; received undefined.");
    expect(thrown(() => checkAttentionBias(bias, { batch: 2, heads: 2, queryLength: 3, keyLength: Number.NaN }, 'f')).message).toMatch(/^checkAttentionBias: 'target.keyLength' must be an integer ≥ 0/);
    bias.dispose();
  });
});
