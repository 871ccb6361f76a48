import { range, reshape, transpose, zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { mergeHeads } from './merge-heads.js';
import { splitHeads } from './split-heads.js';

beforeAll(() => useBackend('cpu'));

describe('splitHeads', () => {
  it('put feature e of token t into head floor(e / D) at position e mod D, and back', async () => {
    const x = reshape(range(0, 2 * 3 * 6), [2, 3, 6]); // [B 2, T 3, E 6]
    const heads = splitHeads(x, 2); // [2, 2, 3, 3]
    expect(heads.shape).toEqual([2, 2, 3, 3]);
    const values = (await heads.array()) as number[][][][];
    expect(values[1]![1]![2]).toEqual([1 * 18 + 2 * 6 + 3, 1 * 18 + 2 * 6 + 4, 1 * 18 + 2 * 6 + 5]); // b 1, head 1, token 2
    const merged = mergeHeads(heads); // and back, exactly
    expect(Array.from(await merged.data())).toEqual(Array.from(await x.data()));
    expect(await leaksOf(() => splitHeads(x, 3).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [x, heads, merged].forEach((t) => t.dispose());
  });
  it('one token (a decoding step) or one head: a reshape alone, equal to the transpose for every batch, leaking nothing', async () => {
    for (const [batch, length, heads, headDim] of [[1, 1, 4, 3], [3, 1, 4, 3], [2, 5, 1, 3], [2, 1, 1, 2]] as const) {
      const x = reshape(range(0, batch * length * heads * headDim), [batch, length, heads * headDim]);
      const split = splitHeads(x, heads);
      const transposed = transpose(reshape(x, [batch, length, heads, headDim]), [0, 2, 1, 3]);
      expect(split.shape).toEqual([batch, heads, length, headDim]);
      expect(await split.array()).toEqual(await transposed.array());
      const merged = mergeHeads(split);
      expect(merged.shape).toEqual([batch, length, heads * headDim]);
      expect(Array.from(await merged.data())).toEqual(Array.from(await x.data()));
      expect(await leaksOf(() => { splitHeads(x, heads).dispose(); mergeHeads(split).dispose(); })).toEqual({ tensors: 0, bytes: 0 });
      [x, split, transposed, merged].forEach((t) => t.dispose());
    }
  });
  it('rejects widths not divisible by the head count and wrong ranks', () => {
    const x = zeros([2, 3, 10]);
    const error = thrown(() => splitHeads(x, 4));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("splitHeads: 'x' must be a last dim E divisible by numHeads = 4; received [2, 3, 10].");
    expect(thrown(() => mergeHeads(x)).message).toBe("mergeHeads: 'x' must be a tensor of rank 4 [B, H, T, D]; received float32 tensor of rank 3 [2, 3, 10].");
    x.dispose();
  });
});
