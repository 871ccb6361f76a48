import { ones, reshape, tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { checkRankTwo } from './check-rank-two.js';
import { validateMask } from './validate-mask.js';

beforeAll(() => useBackend('cpu'));

describe('checkRankTwo', () => {
  it('refuses a rank-2 shape whose first dimension is both B and T', () => {
    const error = thrown(() => checkRankTwo([3, 7], { batch: 3, queryLength: 3 }, 'scaledDotProductAttention', 'mask'));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(
      "scaledDotProductAttention: 'mask' must be an unambiguous layout: with B = T = 3, a rank-2 [3, 7] could be [T, S] or a [B, S] padding mask; received rank 2 [3, 7]. Pass [1, 1, T, S] (or [1, T, S]) for one mask of every query-key pair, or [B, 1, 1, S] for key padding (paddingMask() or paddingMaskFromIds() build it).",
    );
  });

  it.each([
    ['T differs from B', [5, 7], 3, 5],
    ['one sequence', [1, 7], 1, 1],
    ['a broadcast first dimension', [1, 7], 3, 3],
    ['not rank 2', [3, 1, 7], 3, 3],
  ])('accepts %s', (_, shape, batch, queryLength) => {
    expect(() => checkRankTwo(shape, { batch, queryLength }, 'f', 'mask')).not.toThrow();
  });

  it('refuses a shape or target that is not one', () => {
    expect(thrown(() => checkRankTwo('x' as never, { batch: 2, queryLength: 2 }, 'f', 'mask')).message).toBe("checkRankTwo: 'shape' must be a shape (a list of integers); received string 'x'.");
    expect(thrown(() => checkRankTwo([2, 3], null as never, 'f', 'mask'))).toBeInstanceOf(InvalidArgumentError);
  });

  it('is what validateMask applies: a [B, S] padding mask with B == T is refused, not read as [T, S]', () => {
    // rows differ per sequence: read as [T, S] it would mask queries, not keys, and give a wrong answer silently
    const padding = tensor([[true, true, false], [true, false, false]], [2, 3], 'bool');
    expect(thrown(() => validateMask(padding, { batch: 2, heads: 1, queryLength: 2, keyLength: 3 })).message).toMatch(/^validateMask: 'mask' must be an unambiguous layout: with B = T = 2/);
    const expanded = reshape(padding, [2, 1, 1, 3]); // [B, S] -> [B, 1, 1, S]
    const explicit = validateMask(expanded, { batch: 2, heads: 1, queryLength: 2, keyLength: 3 });
    expect(explicit.shape).toEqual([2, 1, 1, 3]);
    const queryKey = ones([1, 2, 3], 'bool');
    const placed = validateMask(queryKey, { batch: 2, heads: 1, queryLength: 2, keyLength: 3 });
    expect(placed.shape).toEqual([1, 1, 2, 3]);
    [padding, expanded, explicit, queryKey, placed].forEach((t) => t.dispose());
  });
  it('refuses a shape with holes and target sizes that are no positive integers', () => {
    expect(thrown(() => checkRankTwo([2, , 3] as never, { batch: 2, queryLength: 2 }, 'f', 'mask')).message).toMatch(/^checkRankTwo: 'shape' must be a shape \(a list of integers\)/); // eslint-disable-line no-sparse-arrays
    expect(thrown(() => checkRankTwo([2, 3], {} as never, 'f', 'mask')).message).toBe("checkRankTwo: 'target.batch' must be an integer ≥ 0; received undefined.");
    expect(thrown(() => checkRankTwo([2, 3], { batch: 2, queryLength: Number.NaN }, 'f', 'mask')).message).toMatch(/^checkRankTwo: 'target.queryLength' must be an integer ≥ 0/);
  });
});
