import { ones, zeros, type Tensor2D } from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from '@attnkit/errors';
import { useBackend } from '@attnkit/backends';
import { thrown } from '@attnkit/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkEmbeddings } from './check-embeddings.js';

beforeAll(() => useBackend('cpu'));

describe('checkEmbeddings', () => {
  it('returns a [B, E] float32 tensor unchanged', () => {
    const x = ones([2, 3]);
    expect(checkEmbeddings(x, 'f', 'anchors')).toBe(x);
    x.dispose();
  });

  it.each([
    [() => [ones([2, 3, 1])], "f: 'x' must be a float32 tensor of rank 2 [B, E]; received float32 tensor of rank 3 [2, 3, 1]."],
    [() => [ones([2, 3], 'int32')], "f: 'x' must be a float32 tensor of rank 2 [B, E]; received int32 tensor of rank 2 [2, 3]."],
    [() => [zeros([0, 3])], "f: 'x' must be a float32 tensor [B, E] with B ≥ 1 and E ≥ 1; received [0, 3]. A loss over an empty batch has no value (PyTorch gives NaN)."],
    [() => [zeros([2, 0])], "f: 'x' must be a float32 tensor [B, E] with B ≥ 1 and E ≥ 1; received [2, 0]. A loss over an empty batch has no value (PyTorch gives NaN)."],
    [() => [ones([3, 3]), ones([2, 3])], "f: 'x' must be a float32 tensor [B, E] of the shape of 'anchors' [2, 3]; received [3, 3]."],
  ])('refuses %#', (make, message) => {
    const [x, like] = make();
    const error = thrown(() => checkEmbeddings(x, 'f', 'x', like === undefined ? undefined : ['anchors', like as Tensor2D]));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
    [x, like].forEach((t) => t?.dispose());
  });
});
