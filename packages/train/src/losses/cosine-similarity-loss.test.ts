import { ones, tensor1d, tensor2d, type Tensor, type Tensor2D } from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from '@attnkit/errors';
import { useBackend } from '@attnkit/backends';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { cosineSimilarityLoss } from './cosine-similarity-loss.js';

beforeAll(() => useBackend('cpu'));

describe('cosineSimilarityLoss', () => {
  it('is the mean squared difference between the row cosines and the labels, and leaks nothing', async () => {
    const a = tensor2d([[1, 0], [2, 2], [0, 0]]);
    const b = tensor2d([[3, 0], [-1, 1], [1, 1]]); // cosines 1, 0, 0 (a zero row: 0, as torch.cosine_similarity)
    const labels = [0.5, 1, -1];
    const expected = (0.25 + 1 + 1) / 3;
    const fromNumbers = cosineSimilarityLoss(a, b, labels);
    const labelTensor = tensor1d(labels);
    const fromTensor = cosineSimilarityLoss(a, b, labelTensor);
    expect(fromNumbers.shape).toEqual([]);
    expect((await fromNumbers.data())[0]).toBeCloseTo(expected, 6);
    expect((await fromTensor.data())[0]).toBeCloseTo(expected, 6);
    expect(await leaksOf(() => cosineSimilarityLoss(a, b, labels).dispose())).toEqual({ tensors: 0, bytes: 0 });
    expect(await leaksOf(() => cosineSimilarityLoss(a, b, labelTensor).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [a, b, labelTensor, fromNumbers, fromTensor].forEach((t) => t.dispose());
  });
});

describe('cosineSimilarityLoss input checks', () => {
  const caller = 'cosineSimilarityLoss';
  it.each([
    [() => [ones([2, 3]), ones([3, 3])], [1, 1], `${caller}: 'b' must be a float32 tensor [B, E] of the shape of 'a' [2, 3]; received [3, 3].`],
    [() => [ones([3]), ones([3])], [1, 1], `${caller}: 'a' must be a float32 tensor of rank 2 [B, E]; received float32 tensor of rank 1 [3].`],
    [() => [ones([0, 3]), ones([0, 3])], [], `${caller}: 'a' must be a float32 tensor [B, E] with B ≥ 1 and E ≥ 1; received [0, 3]. A loss over an empty batch has no value (PyTorch gives NaN).`],
    [() => [ones([2, 3]), ones([2, 3])], [1, 1, 1], `${caller}: 'labels' must be B = 2 numbers (the rows of 'a'); received 3 numbers.`],
    [() => [ones([2, 3]), ones([2, 3])], [1, NaN], `${caller}: 'labels' must be B = 2 finite numbers or a float32 tensor [B]; received array [1,NaN].`],
    [() => [ones([2, 3]), ones([2, 3]), ones([3])], undefined, `${caller}: 'labels' must be a float32 tensor [B] with B = 2 (the rows of 'a'); received [3].`],
    [() => [ones([2, 3]), ones([2, 3]), ones([2, 1])], undefined, `${caller}: 'labels' must be a float32 tensor of rank 1 [B]; received float32 tensor of rank 2 [2, 1].`],
  ] as const)('refuses bad input with a typed error (%#), leaking nothing', async (make, labelNumbers, message) => {
    const [a, b, labelTensor] = make() as Tensor[];
    const labels = (labelTensor ?? labelNumbers) as never;
    const leaks = await leaksOf(() => {
      const error = thrown(() => cosineSimilarityLoss(a as Tensor2D, b as Tensor2D, labels));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe(message);
    });
    expect(leaks.tensors).toBe(0);
    [a, b, labelTensor].forEach((t) => t?.dispose());
  });
});
