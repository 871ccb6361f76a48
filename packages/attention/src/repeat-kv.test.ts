import { beforeAll, describe, expect, it } from 'vitest';
import { range, reshape, tidy, zeros } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { repeatKv } from './repeat-kv.js';

beforeAll(() => useBackend('cpu'));

describe('repeatKv', () => {
  it('repeats each head in place (repeat_interleave on the head axis)', async () => {
    const x = tidy(() => reshape(range(0, 4), [1, 2, 2, 1])); // heads [0, 1] and [2, 3]
    const y = repeatKv(x, 3);
    expect(y.shape).toEqual([1, 6, 2, 1]);
    expect(Array.from(await y.data())).toEqual([0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3]);
    const same = repeatKv(x, 1);
    expect(Array.from(await same.data())).toEqual([0, 1, 2, 3]);
    expect(await leaksOf(() => repeatKv(x, 2).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [x, y, same].forEach((t) => t.dispose());
  });

  it('checks its arguments', () => {
    const x = zeros([1, 2, 3]);
    expect(thrown(() => repeatKv(x, 2)).message).toBe("repeatKv: 'x' must be a tensor of rank 4 [B, Hkv, S, D]; received float32 tensor of rank 3 [1, 2, 3].");
    const y = zeros([1, 2, 3, 4]);
    expect(thrown(() => repeatKv(y, 0)).message).toBe("repeatKv: 'numRepeats' must be an integer ≥ 1; received number 0.");
    [x, y].forEach((t) => t.dispose());
  });
});
