import { beforeAll, describe, expect, it } from 'vitest';
import { ones, randomNormal, zeros } from '@tensorflow/tfjs-core';
import { maxDifference, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { applyRotary } from './apply-rotary.js';

beforeAll(() => useBackend('cpu'));

describe('applyRotary', () => {
  it('is the identity at angle 0 (cos 1, sin 0) and passes the unrotated dims of a partial rotary through', async () => {
    const [q, k] = [randomNormal([1, 2, 3, 6], 0, 1, 'float32', 1), randomNormal([1, 1, 3, 6], 0, 1, 'float32', 2)];
    const [cos, sin] = [ones([1, 3, 4]), zeros([1, 3, 4])];
    const { query, key } = applyRotary(q, k, cos, sin);
    expect(maxDifference(await query.data(), await q.data()).maxAbsDiff).toBe(0);
    expect(maxDifference(await key.data(), await k.data()).maxAbsDiff).toBe(0);
    expect(await leaksOf(() => { const r = applyRotary(q, k, cos, sin); r.query.dispose(); r.key.dispose(); })).toEqual({ tensors: 0, bytes: 0 });
    [q, k, cos, sin, query, key].forEach((t) => t.dispose());
  });

  it('turns each pair (x_i, x_{i+R/2}) by the angle: at 90°, (a, b) -> (-b, a)', async () => {
    const q = randomNormal([1, 1, 1, 4], 0, 1, 'float32', 3);
    const [cos, sin] = [zeros([1, 1, 4]), ones([1, 1, 4])];
    const { query, key } = applyRotary(q, q, cos, sin);
    const [a0, a1, b0, b1] = Array.from(await q.data());
    expect(Array.from(await query.data())).toEqual([-b0!, -b1!, a0!, a1!]);
    [q, cos, sin, query, key].forEach((t) => t.dispose());
  });

  it('refuses shapes that do not fit with typed errors', () => {
    const [q, k, kLong, cos, odd, sinOther] = [zeros([2, 4, 5, 8]), zeros([2, 2, 5, 8]), zeros([2, 2, 6, 8]), zeros([2, 5, 8]), zeros([2, 5, 3]), zeros([2, 5, 6])];
    expect(thrown(() => applyRotary(q, kLong, cos, cos)).message).toBe("applyRotary: 'key' must be [B, Hkv, T, D] with B, T, D = 2, 5, 8 (from 'query'); received [2, 2, 6, 8].");
    expect(thrown(() => applyRotary(q, k, odd, odd)).message).toBe("applyRotary: 'cos' must be [B, T, R] with B, T = 2, 5 and R even, 2 ≤ R ≤ D = 8; received [2, 5, 3]. rotaryCosSin() or RotaryEmbedding.forward() make cos and sin from the position ids [B, T].");
    expect(thrown(() => applyRotary(q, k, cos, sinOther)).message).toBe("applyRotary: 'sin' must be the shape of 'cos', [2, 5, 8]; received [2, 5, 6].");
    expect(thrown(() => applyRotary(cos, k, cos, cos))).toBeInstanceOf(InvalidArgumentError);
    [q, k, kLong, cos, odd, sinOther].forEach((t) => t.dispose());
  });
});
