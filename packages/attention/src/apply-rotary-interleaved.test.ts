import { beforeAll, describe, expect, it } from 'vitest';
import { concat, cos as cosOf, gather, ones, randomNormal, randomUniform, sin as sinOf, tensor1d, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { maxDifference, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { applyRotary } from './apply-rotary.js';
import { applyRotaryInterleaved } from './apply-rotary-interleaved.js';

beforeAll(() => useBackend('cpu'));

/** Interleaved dim 2i ↔ half-split dim i, dim 2i+1 ↔ dim i + R/2 (R = D here). */
const toHalves = (d: number) => tensor1d([...Array.from({ length: d / 2 }, (_, i) => 2 * i), ...Array.from({ length: d / 2 }, (_, i) => 2 * i + 1)], 'int32');

describe('applyRotaryInterleaved', () => {
  it('turns neighbouring pairs: at 90°, (a, b, c, d) -> (-b, a, -d, c)', async () => {
    const x = randomNormal([1, 1, 1, 4], 0, 1, 'float32', 3);
    const [cos, sin] = [zeros([1, 1, 4]), ones([1, 1, 4])];
    const out = applyRotaryInterleaved(x, cos, sin);
    const [a, b, c, d] = Array.from(await x.data());
    expect(Array.from(await out.data())).toEqual([-b!, a!, -d!, c!]);
    [x, cos, sin, out].forEach((t) => t.dispose());
  });

  it("is applyRotary (rotate_half) on the dims reordered into halves, for per-row angles, and leaks nothing", async () => {
    const [batch, heads, length, d] = [2, 3, 5, 8];
    const x = randomNormal([batch, heads, length, d], 0, 1, 'float32', 4);
    const angles = randomUniform([batch, length, d / 2], -3, 3, 'float32', 5); // [B, T, D/2]
    const interleave = (t: Tensor) => gather(concat([t, t], 2), tensor1d(Array.from({ length: d }, (_, i) => (i % 2) * (d / 2) + Math.floor(i / 2)), 'int32'), 2); // θ0, θ0, θ1, θ1, ...
    const [cos, sin] = [interleave(cosOf(angles)), interleave(sinOf(angles))];
    const [cosHalves, sinHalves] = [concat([cosOf(angles), cosOf(angles)], 2), concat([sinOf(angles), sinOf(angles)], 2)]; // θ0, θ1, ..., θ0, θ1, ...
    const out = applyRotaryInterleaved(x, cos, sin);
    const order = toHalves(d);
    const halves = gather(x, order, 3);
    const { query } = applyRotary(halves, halves, cosHalves, sinHalves);
    expect(maxDifference(await gather(out, order, 3).data(), await query.data()).maxAbsDiff).toBeLessThan(1e-6);
    expect(await leaksOf(() => applyRotaryInterleaved(x, cos, sin).dispose())).toEqual({ tensors: 0, bytes: 0 });
  });

  it('broadcasts [1, T, R] over the batch and passes the dims past R through', async () => {
    const x = randomNormal([2, 2, 3, 6], 0, 1, 'float32', 6);
    const [cos, sin] = [ones([1, 3, 4]), zeros([1, 3, 4])];
    const out = applyRotaryInterleaved(x, cos, sin);
    expect(maxDifference(await out.data(), await x.data()).maxAbsDiff).toBe(0);
    [x, cos, sin, out].forEach((t) => t.dispose());
  });

  it('refuses shapes that do not fit with typed errors', () => {
    const [x, odd, long, cos, sinOther] = [zeros([2, 4, 5, 8]), zeros([2, 5, 3]), zeros([2, 5, 10]), zeros([2, 5, 8]), zeros([2, 5, 6])];
    expect(thrown(() => applyRotaryInterleaved(x, odd, odd)).message).toBe("applyRotaryInterleaved: 'cos' must be [B, T, R] or [1, T, R] with B, T = 2, 5 and R even, 2 ≤ R ≤ D = 8; received [2, 5, 3]. Each angle twice in a row (θ0, θ0, θ1, θ1, ...), as RoFormer builds cos_pos.");
    expect(thrown(() => applyRotaryInterleaved(x, long, long))).toBeInstanceOf(InvalidArgumentError);
    expect(thrown(() => applyRotaryInterleaved(x, cos, sinOther)).message).toBe("applyRotaryInterleaved: 'sin' must be the shape of 'cos', [2, 5, 8]; received [2, 5, 6].");
    expect(thrown(() => applyRotaryInterleaved(cos, cos, cos))).toBeInstanceOf(InvalidArgumentError);
    [x, odd, long, cos, sinOther].forEach((t) => t.dispose());
  });
});
