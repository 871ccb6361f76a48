import { memory, randomNormal, tensor4d, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { maxDifference, useBackend } from '@attnkit/backends';
import { groupedQueryAttentionOutput } from './grouped-query-attention-output.js';
import { groupQueryHeads } from './group-query-heads.js';
import { repeatKv } from './repeat-kv.js';
import { scaledDotProductAttentionOutput } from './scaled-dot-product-attention-output.js';

// B 2, H 4 query heads over Hkv 2 key/value heads, T 3 queries, S 5 keys, D 4
const inputs = () => ({ q: randomNormal([2, 4, 3, 4], 0, 1, 'float32', 1), k: randomNormal([2, 2, 5, 4], 0, 1, 'float32', 2), v: randomNormal([2, 2, 5, 4], 0, 1, 'float32', 3) });
const masks = {
  'no mask': () => ({}),
  'a padding mask [B, 1, 1, S]': () => ({ mask: tensor4d([[[[true, true, true, false, false]]], [[[true, true, true, true, true]]]], [2, 1, 1, 5], 'bool') }),
  'a per-head causal mask [1, H, T, S]': () => ({ mask: tensor4d(Array.from({ length: 4 * 3 * 5 }, (_, i) => (i % 5) <= Math.floor(i / 5) % 3 + 2), [1, 4, 3, 5], 'bool') }),
  'a bias [B, 1, T, S]': () => ({ bias: randomNormal([2, 1, 3, 5], 0, 1, 'float32', 4) }),
};

describe('groupedQueryAttentionOutput', () => {
  it.each(Object.keys(masks) as (keyof typeof masks)[])('equals attention over the repeated keys and values (%s), leaving nothing behind', async (name) => {
    await useBackend('cpu');
    const { q, k, v } = inputs();
    const options = masks[name]();
    const expected = tidy(() => scaledDotProductAttentionOutput(q, repeatKv(k, 2), repeatKv(v, 2), options));
    const before = memory().numTensors;
    const output = groupedQueryAttentionOutput(q, k, v, options);
    expect(memory().numTensors).toBe(before + 1);
    expect(output.shape).toEqual([2, 4, 3, 4]);
    expect(maxDifference(await output.data(), await expected.data()).maxAbsDiff).toBeLessThan(1e-6);
    [q, k, v, output, expected, ...(Object.values(options) as Tensor[])].forEach((t) => t.dispose());
  });

  it('groups the queries by key/value head unless a custom scorer must see every head', async () => {
    await useBackend('cpu');
    const { q, k, v } = inputs();
    const grouped = tidy(() => { const g = groupQueryHeads(q, k, v, {}, 'test'); return { route: g.route, groups: g.groups, shape: g.query.shape }; });
    expect(grouped).toEqual({ route: 'grouped', groups: 2, shape: [2, 2, 6, 4] });
    const custom = tidy(() => groupQueryHeads(q, k, v, { scorer: { score: () => { throw new Error('unused'); } } as never }, 'test').route);
    expect(custom).toBe('repeated');
    expect(() => groupQueryHeads(q, k, v, { masks: 1 } as never, 'test')).toThrow(/masks/);
    [q, k, v].forEach((t) => t.dispose());
  });
});
