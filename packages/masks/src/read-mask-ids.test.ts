import { tensor2d } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { readMaskIds } from './read-mask-ids.js';

beforeAll(() => useBackend('cpu'));

describe('readMaskIds', () => {
  it('reads rows and tensors of 0/1 into one Uint8Array, leaving no tensor', async () => {
    expect(readMaskIds([[0, 1, 1], new Uint8Array([1, 1, 0])], 'f')).toEqual({ batch: 2, length: 3, values: new Uint8Array([0, 1, 1, 1, 1, 0]) });
    const ids = tensor2d([[1, 0]], undefined, 'int32');
    expect(await leaksOf(() => expect(readMaskIds(ids, 'f').values).toEqual(new Uint8Array([1, 0])))).toEqual({ tensors: 0, bytes: 0 });
    ids.dispose();
  });

  it('names the caller and the argument in its errors', () => {
    const error = thrown(() => readMaskIds([[1, 2]], 'KvCache.step', 'tokenMask'));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("KvCache.step: 'tokenMask[0][1]' must be 0 (padding) or 1 (token); received number 2.");
    expect(thrown(() => readMaskIds([[1], [1, 1]], 'f')).message).toBe("f: 'attentionMask[1]' must be a row of 1 values like row 0; received array [1,1].");
    expect(thrown(() => readMaskIds([], 'f')).message).toBe("f: 'attentionMask' must be a non-empty [B, S] mask (B ≥ 1, S ≥ 1); received [0, 0].");
  });
  it('names a first row that is no row as such (not as a row of 0 values)', () => {
    expect(thrown(() => readMaskIds([1, , 1] as never, 'f')).message).toBe("f: 'attentionMask[0]' must be a row of 0/1 values (a list or typed array); received number 1."); // eslint-disable-line no-sparse-arrays
  });
});
