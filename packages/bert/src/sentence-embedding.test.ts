import { tensor, tensor2d, tensor3d } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { maxDifference, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { clsPooling, cosineSimilarity, l2Normalize, meanPooling } from './sentence-embedding.js';

let hidden: ReturnType<typeof tensor3d>;
beforeAll(async () => {
  await useBackend('cpu');
  hidden = tensor3d([[[1, 2], [3, 4], [100, 100]], [[5, 6], [0, 0], [0, 0]]]); // [B 2, T 3, E 2]
});

describe('sentence embeddings', () => {
  it('mean-pools over real tokens only (padding never counts), and an empty sequence gives zeros', async () => {
    const mask = tensor2d([[1, 1, 0], [1, 0, 0]], undefined, 'int32');
    expect(await meanPooling(hidden, mask).array()).toEqual([[2, 3], [5, 6]]);
    const empty = tensor2d([[0, 0, 0], [1, 1, 1]], undefined, 'int32');
    expect(((await meanPooling(hidden, empty).array()) as number[][])[0]).toEqual([0, 0]);
    expect(await leaksOf(() => meanPooling(hidden, mask).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [mask, empty].forEach((t) => t.dispose());
  });

  it('takes [CLS], normalises to unit length (a zero row stays zero), and gives cosine similarities', async () => {
    expect(await clsPooling(hidden).array()).toEqual([[1, 2], [5, 6]]);
    const rows = tensor2d([[3, 4], [0, 0], [-6, -8]]);
    expect(maxDifference(await l2Normalize(rows).data(), [0.6, 0.8, 0, 0, -0.6, -0.8]).maxAbsDiff).toBeLessThan(1e-7);
    const sim = cosineSimilarity(rows, tensor2d([[4, 3], [3, 4]]));
    expect(maxDifference(await sim.data(), [0.96, 1, 0, 0, -0.96, -1]).maxAbsDiff).toBeLessThan(1e-6);
    rows.dispose();
  });

  it('rejects shapes that do not fit', () => {
    const mask = tensor([[1, 1]], [1, 2], 'int32');
    const error = thrown(() => meanPooling(hidden, mask));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("meanPooling: 'attentionMask' must be [B, T] = [2, 3]; received [1, 2].");
    const a = tensor2d([[1, 2]]);
    const b = tensor2d([[1, 2, 3]]);
    expect(thrown(() => cosineSimilarity(a, b)).message).toBe("cosineSimilarity: 'b' must be rows of width E = 2 like 'a'; received [1, 3].");
    [mask, a, b].forEach((t) => t.dispose());
  });
});
