import { ones, scalar, tensor2d, zeros, type Tensor, type Tensor2D } from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from '@attnkit/errors';
import { useBackend } from '@attnkit/backends';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { multipleNegativesRankingLoss } from './multiple-negatives-ranking-loss.js';

beforeAll(() => useBackend('cpu'));

describe('multipleNegativesRankingLoss', () => {
  it('is the cross-entropy of the scaled cosine scores with the diagonal as labels, and leaks nothing', async () => {
    // anchors e1, e2; positives e1, -e1 + e2 (unnormalised); hard negatives e2, e1
    const anchors = tensor2d([[1, 0], [0, 2]]);
    const positives = tensor2d([[3, 0], [-1, 1]]);
    const negatives = tensor2d([[0, 1], [1, 0]]);
    const s = 20;
    const c = Math.SQRT1_2;
    // rows of cos: anchor 1 vs [p1, p2] = [1, -c], anchor 2 vs [p1, p2] = [0, c]
    const expected = (0.5 * (Math.log(Math.exp(s) + Math.exp(-s * c)) - s + Math.log(1 + Math.exp(s * c)) - s * c));
    const loss = multipleNegativesRankingLoss(anchors, positives);
    expect(loss.shape).toEqual([]);
    expect((await loss.data())[0]).toBeCloseTo(expected, 5);
    // with the negatives: anchor 1 adds [0, 1], anchor 2 adds [1, 0]
    const withNegatives = multipleNegativesRankingLoss(anchors, positives, { hardNegatives: [negatives], scale: 2 });
    const row1 = Math.log(Math.exp(2) + Math.exp(-2 * c) + 1 + Math.exp(2)) - 2;
    const row2 = Math.log(1 + Math.exp(2 * c) + Math.exp(2) + 1) - 2 * c;
    expect((await withNegatives.data())[0]).toBeCloseTo((row1 + row2) / 2, 5);
    expect(await leaksOf(() => multipleNegativesRankingLoss(anchors, positives, { hardNegatives: [negatives, negatives] }).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [anchors, positives, negatives, loss, withNegatives].forEach((t) => t.dispose());
  });

  it('scores a zero row 0 (no NaN)', async () => {
    const loss = multipleNegativesRankingLoss(tensor2d([[0, 0], [1, 0]]), tensor2d([[1, 0], [0, 1]]));
    expect(Number.isFinite((await loss.data())[0])).toBe(true);
    loss.dispose();
  });
});

describe('multipleNegativesRankingLoss input checks', () => {
  const caller = 'multipleNegativesRankingLoss';
  it.each([
    [() => [ones([2, 3]), ones([3, 3])], {}, `${caller}: 'positives' must be a float32 tensor [B, E] of the shape of 'anchors' [2, 3]; received [3, 3].`],
    [() => [ones([2, 3]), ones([2, 4])], {}, `${caller}: 'positives' must be a float32 tensor [B, E] of the shape of 'anchors' [2, 3]; received [2, 4].`],
    [() => [ones([2, 3, 1]), ones([2, 3])], {}, `${caller}: 'anchors' must be a float32 tensor of rank 2 [B, E]; received float32 tensor of rank 3 [2, 3, 1].`],
    [() => [ones([2, 3]), ones([3])], {}, `${caller}: 'positives' must be a float32 tensor of rank 2 [B, E]; received float32 tensor of rank 1 [3].`],
    [() => [zeros([0, 3]), zeros([0, 3])], {}, `${caller}: 'anchors' must be a float32 tensor [B, E] with B ≥ 1 and E ≥ 1; received [0, 3]. A loss over an empty batch has no value (PyTorch gives NaN).`],
    [() => [ones([2, 3]), ones([2, 3]), ones([2, 3]), ones([1, 3])], {}, `${caller}: 'hardNegatives[1]' must be a float32 tensor [B, E] of the shape of 'anchors' [2, 3]; received [1, 3].`],
    [() => [ones([2, 3]), ones([2, 3])], { scale: 0 }, `${caller}: 'scale' must be a finite number > 0 (1 / temperature, e.g. 20); received number 0.`],
    [() => [ones([2, 3]), ones([2, 3])], { scale: -1 }, `${caller}: 'scale' must be a finite number > 0 (1 / temperature, e.g. 20); received number -1.`],
    [() => [ones([2, 3]), ones([2, 3])], { scale: Infinity }, `${caller}: 'scale' must be a finite number > 0 (1 / temperature, e.g. 20); received number Infinity.`],
    [() => [ones([2, 3]), ones([2, 3])], { scale: NaN }, `${caller}: 'scale' must be a finite number > 0 (1 / temperature, e.g. 20); received number NaN.`],
    [() => [ones([2, 3]), ones([2, 3])], { temperature: 0.05 }, `${caller}: 'options' must be an object with only the keys scale, hardNegatives; received the unknown key 'temperature'.`],
    [() => [ones([2, 3]), ones([2, 3])], { negatives: [] }, `${caller}: 'options' must be an object with only the keys scale, hardNegatives; received the unknown key 'negatives'. Did you mean 'hardNegatives'?`],
  ] as const)('refuses bad input with a typed error (%#), leaking nothing', async (make, extra, message) => {
    const [anchors, positives, ...negatives] = make() as Tensor[];
    const options = { ...(negatives.length > 0 ? { hardNegatives: negatives as Tensor2D[] } : {}), ...extra };
    const leaks = await leaksOf(() => {
      const error = thrown(() => multipleNegativesRankingLoss(anchors as Tensor2D, positives as Tensor2D, options));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe(message);
    });
    expect(leaks.tensors).toBe(0);
    [anchors, positives, ...negatives].forEach((t) => t?.dispose());
  });

  it('refuses hardNegatives that are not an array', () => {
    const x = ones([2, 3]);
    const negatives = scalar(1);
    const error = thrown(() => multipleNegativesRankingLoss(x as Tensor2D, x as Tensor2D, { hardNegatives: negatives as never }));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(`multipleNegativesRankingLoss: 'hardNegatives' must be an array of float32 tensors [B, E]; received float32 tensor of rank 0 [].`);
    [x, negatives].forEach((t) => t.dispose());
  });
});
