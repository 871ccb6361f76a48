import { randomNormal, tensor4d, tidy } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { groupQueryHeads } from './group-query-heads.js';

// B 1, H 4 query heads over Hkv 2 (groups of 2), T 2 queries, C 6 keys held, D 3
const inputs = () => ({ q: randomNormal([1, 4, 2, 3], 0, 1, 'float32', 1), k: randomNormal([1, 2, 6, 3], 0, 1, 'float32', 2), v: randomNormal([1, 2, 6, 3], 0, 1, 'float32', 3) });

describe('groupQueryHeads', () => {
  beforeAll(() => useBackend('cpu'));

  it('puts query head h of key/value head g at rows (h mod n)·T + t of [B, Hkv, n·T, D], and a per-head mask the same way', async () => {
    const { q, k, v } = inputs();
    const mask = tensor4d(Array.from({ length: 4 * 2 * 6 }, (_, i) => i % 5 !== 0), [1, 4, 2, 6], 'bool'); // [1, H, T, S]
    const g = groupQueryHeads(q, k, v, { mask }, 'test'); // makes the regrouped query and mask (disposed below)
    expect([g.route, g.groups, g.query.shape, g.options.mask!.shape]).toEqual(['grouped', 2, [1, 2, 4, 3], [1, 2, 4, 6]]);
    const [query, regrouped, want, wantMask] = [await g.query.array(), await g.options.mask!.array(), await q.array(), await mask.array()] as unknown as [number[][][][], number[][][][], number[][][][], number[][][][]];
    for (let h = 0; h < 4; h++) {
      for (let t = 0; t < 2; t++) {
        const [group, row] = [Math.floor(h / 2), (h % 2) * 2 + t];
        expect(query[0]![group]![row]).toEqual(want[0]![h]![t]);
        expect(regrouped[0]![group]![row]).toEqual(wantMask[0]![h]![t]);
      }
    }
    [q, k, v, mask, g.query, g.options.mask!].forEach((t) => t.dispose());
  });

  it('checks the mask against `attended` positions S when only the first S of the keys\' C are attended (a KvCacheView)', () => {
    const { q, k, v } = inputs();
    const overFour = tensor4d([true, true, false, true], [1, 1, 1, 4], 'bool');
    const overSix = tensor4d([true, true, true, true, true, true], [1, 1, 1, 6], 'bool');
    expect(tidy(() => groupQueryHeads(q, k, v, { mask: overFour }, 'test', 4).options.mask!.shape)).toEqual([1, 1, 1, 4]);
    const error = thrown(() => tidy(() => { groupQueryHeads(q, k, v, { mask: overSix }, 'test', 4); }));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toMatch(/^test: 'mask' must be broadcastable to \[B, H, T, S\] = \[1, 4, 2, 4\]/);
    expect(thrown(() => tidy(() => { groupQueryHeads(q, k, v, { mask: overFour }, 'test'); })).message).toMatch(/= \[1, 4, 2, 6\]/); // without it: all C positions
    [q, k, v, overFour, overSix].forEach((t) => t.dispose());
  });

  it('refuses keys whose heads do not divide the query heads, naming the caller', () => {
    const q = randomNormal([1, 3, 2, 3]);
    const k = randomNormal([1, 2, 6, 3]);
    expect(thrown(() => groupQueryHeads(q, k, k, {}, 'test')).message).toBe("test: 'key' must be [B, Hkv, S, D] with B = 1, D = 3 (from 'query') and Hkv dividing H = 3; received [1, 2, 6, 3]. Each key/value head serves H / Hkv query heads (num_attention_heads / num_key_value_heads).");
    [q, k].forEach((t) => t.dispose());
  });
});
