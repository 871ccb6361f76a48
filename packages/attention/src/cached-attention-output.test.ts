import { concat, profile, randomNormal, slice, tensor4d, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { ATTENTION_ROWS_KERNEL } from '@attnkit/kernels';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { cachedAttentionOutput } from './cached-attention-output.js';
import { groupedQueryAttentionOutput } from './grouped-query-attention-output.js';

// B 2, H 6 query heads over Hkv 2 (groups of 3), T 1 query, S 9 positions set of C 13 held, D 8
const [B, H, HKV, S, C, D] = [2, 6, 2, 9, 13, 8];
const setup = (queries: number) => tidy(() => {
  const query = randomNormal([B, H, queries, D], 0, 1, 'float32', 1);
  const set = { key: randomNormal([B, HKV, S, D], 0, 1, 'float32', 2), value: randomNormal([B, HKV, S, D], 0, 1, 'float32', 3) };
  const unset = tidy(() => concat([randomNormal([B, HKV, C - S, D], 0, 1e6, 'float32', 4)], 2)); // what a cache grown ahead holds past S: must never count
  const held = { key: concat([set.key, unset], 2), value: concat([set.value, unset], 2) };
  const padding = tensor4d(Array.from({ length: B * S }, (_, i) => i !== 0 && i !== 1), [B, 1, 1, S], 'bool'); // row 0's first two positions are padding
  return { query, set, held, padding };
});

afterAll(() => useBackend('cpu'));

describe('cachedAttentionOutput', () => {
  it.each([['cpu', 1], ['wasm', 1], ['wasm', 3]] as const)('on %s, T = %i: equals groupedQueryAttentionOutput over the first S positions alone, leaking nothing', async (backend, queries) => {
    await useBackend(backend);
    const { query, set, held, padding } = setup(queries);
    for (const options of [{}, { mask: padding }]) {
      const want = groupedQueryAttentionOutput(query, set.key, set.value, options);
      const got = cachedAttentionOutput(query, { key: held.key, value: held.value, length: S }, options);
      expect(got.shape).toEqual([B, H, queries, D]);
      const [a, b] = [await got.data(), await want.data()];
      expect(Math.max(...Array.from(a, (x, i) => Math.abs(x - (b[i] as number))))).toBeLessThan(1e-6);
      [want, got].forEach((t) => t.dispose());
      expect(await leaksOf(() => cachedAttentionOutput(query, { key: held.key, value: held.value, length: S }, options).dispose())).toEqual({ tensors: 0, bytes: 0 });
    }
    [query, set.key, set.value, held.key, held.value, padding].forEach((t) => t.dispose());
  });

  it('on wasm, a decoding step reads the positions where they are held: the fused rows kernel, no copy of the keys', async () => {
    await useBackend('wasm');
    const { query, set, held, padding } = setup(1);
    const kernels = (await profile(() => cachedAttentionOutput(query, { key: held.key, value: held.value, length: S }, { mask: padding }).dispose())).kernels.map((k) => k.name);
    expect(kernels).toContain(ATTENTION_ROWS_KERNEL);
    expect(kernels.filter((name) => name === 'Slice' || name === 'Concat')).toEqual([]);
    [query, set.key, set.value, held.key, held.value, padding].forEach((t) => t.dispose());
  });

  it('with training on, copies the first S positions out and takes the unfused path (dropout applies)', async () => {
    await useBackend('wasm');
    const { query, set, held } = setup(1);
    const options = { dropout: 0.5, training: true, seed: 7 };
    const [got, want] = [cachedAttentionOutput(query, { key: held.key, value: held.value, length: S }, options), groupedQueryAttentionOutput(query, set.key, set.value, options)];
    expect(Array.from(await got.data())).toEqual(Array.from(await want.data()));
    [query, set.key, set.value, held.key, held.value, got, want].forEach((t) => t.dispose());
  });

  it('refuses a view that is not one, a length past its positions, and a mask over other positions, with typed errors', async () => {
    await useBackend('cpu');
    const { query, set, held, padding } = setup(1);
    const view = { key: held.key, value: held.value, length: S };
    expect(thrown(() => cachedAttentionOutput(query, { ...view, length: C + 1 }))).toBeInstanceOf(InvalidArgumentError);
    expect(thrown(() => cachedAttentionOutput(query, { ...view, length: C + 1 })).message).toBe(`cachedAttentionOutput: 'view.length' must be an integer from 0 to ${C}; received number ${C + 1}.`);
    expect(thrown(() => cachedAttentionOutput(query, { ...view, value: set.value })).message).toBe(`cachedAttentionOutput: 'view.value' must be [B, Hkv, C, Dv] with C = ${C} (from 'view.key'); received [2, 2, 9, 8].`);
    expect(thrown(() => cachedAttentionOutput(query, null as never)).message).toMatch(/^cachedAttentionOutput: 'view' must be a KvCacheView/);
    expect(thrown(() => cachedAttentionOutput(query, view, { attentionMask: padding } as never)).message).toMatch(/^cachedAttentionOutput: 'options' must be an object with only the keys/);
    const other = slice(padding, 0, [B, 1, 1, 5]);
    expect(thrown(() => cachedAttentionOutput(query, view, { mask: other })).message).toBe('cachedAttentionOutput: \'mask\' must be broadcastable to [B, H, T, S] = [2, 6, 1, 9] (read as [B, H, T, S]; each dimension 1 or equal); received [2, 1, 1, 5], whose dimension 3 (S) is 5, expected 1 or 9.');
    [query, set.key, set.value, held.key, held.value, padding, other].forEach((t) => t.dispose());
  });
});
