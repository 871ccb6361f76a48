import { tensor4d } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { leaksOf } from '@attnkit/test-utils';
import { mergeHeads } from './merge-heads.js';

beforeAll(() => useBackend('cpu'));

describe('mergeHeads', () => {
  it('concatenates the heads of each token in head order: [B, H, T, D] -> [B, T, H·D]', async () => {
    // head 0 holds 1s and 2s for tokens 0 and 1, head 1 holds 3s and 4s
    const heads = tensor4d([[[[1, 1], [2, 2]], [[3, 3], [4, 4]]]]); // [1, 2, 2, 2]
    const merged = mergeHeads(heads);
    expect(merged.shape).toEqual([1, 2, 4]);
    expect(await merged.array()).toEqual([[[1, 1, 3, 3], [2, 2, 4, 4]]]);
    expect(await leaksOf(() => mergeHeads(heads).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [heads, merged].forEach((t) => t.dispose());
  });
});
