import { tensor2d } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { positionIdsFromMask } from './position-ids-from-mask.js';

beforeAll(() => useBackend('cpu'));

describe('positionIdsFromMask', () => {
  it("counts each row's tokens from 0, padding at 0, as transformers' generate()", async () => {
    const ids = positionIdsFromMask([[0, 0, 1, 1], [1, 1, 1, 1], [1, 1, 0, 0]]);
    expect(ids.dtype).toBe('int32');
    expect(await ids.array()).toEqual([[0, 0, 0, 1], [0, 1, 2, 3], [0, 1, 0, 0]]);
    ids.dispose();
    const mask = tensor2d([[0, 1, 1]], undefined, 'int32');
    expect(await leaksOf(() => positionIdsFromMask(mask).dispose())).toEqual({ tensors: 0, bytes: 0 });
    mask.dispose();
  });

  it('refuses what is not a 0/1 mask [B, T]', () => {
    expect(thrown(() => positionIdsFromMask([[1, 0.5]])).message).toBe("positionIdsFromMask: 'attentionMask[0][1]' must be 0 (padding) or 1 (token); received number 0.5.");
    expect(thrown(() => positionIdsFromMask('x' as never))).toBeInstanceOf(InvalidArgumentError);
  });
});
