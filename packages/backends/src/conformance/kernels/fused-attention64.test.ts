import { describe, expect, it } from 'vitest';
import { seededValues } from '../seeded-values.js';
import { fusedAttentionReference } from '@attnkit/kernels';
import { fusedAttention64 } from './fused-attention64.js';

describe('fusedAttention64', () => {
  const one = { scale: 1, query: [1, 0], key: [1, 0, 0, 1, 5, 5], value: [10, 20, 30] };

  it('weighs the values by the softmax of the scores, blocked keys by 0, rows with nothing allowed zeros', () => {
    // scores of the one query against three keys: 1, 0, 5
    const sizes = [1, 1, 1, 3, 2, 1] as const;
    const e = [Math.exp(1 - 5), Math.exp(0 - 5), 1];
    const plain = fusedAttention64({ sizes, ...one }).values[0];
    expect(plain).toBeCloseTo((10 * e[0]! + 20 * e[1]! + 30) / (e[0]! + e[1]! + 1), 12);
    const masked = fusedAttention64({ sizes, ...one, mask: { values: [1, 1, 0], shape: [1, 1, 1, 3] } });
    expect(masked.values[0]).toBeCloseTo((10 * Math.E + 20) / (Math.E + 1), 12);
    const biased = fusedAttention64({ sizes, ...one, bias: { values: [0, 1, -4], shape: [1, 1, 1, 3] } }); // scores 1, 1, 1
    expect(biased.values[0]).toBeCloseTo(20, 12);
    const blocked = fusedAttention64({ sizes, ...one, mask: { values: [0], shape: [1, 1, 1, 1] } });
    expect(Array.from(blocked.values)).toEqual([0]);
    expect(blocked.float32Bound).toBe(0);
  });

  it('broadcasts a mask [B, 1, T, 1] over heads and keys', () => {
    // every key the same: equal scores, so an allowed row is the mean of the values [1, 2, 3] of its head
    const sizes = [2, 2, 2, 3, 2, 1] as const;
    const inputs = { scale: 1, query: seededValues(9, 16), key: Array(24).fill(0.5), value: [1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3] };
    const { values } = fusedAttention64({ sizes, ...inputs, mask: { values: [1, 0, 0, 1], shape: [2, 1, 2, 1] } });
    [2, 0, 2, 0, 0, 2, 0, 2].forEach((expected, n) => expect(values[n]).toBeCloseTo(expected, 14)); // [B, H, T, 1]
  });

  it('bounds the float32-step reference (fusedAttentionReference) with a mask and a bias, tightly', () => {
    const [b, h, t, s, d, dv] = [2, 3, 5, 7, 6, 5];
    const query = seededValues(1, b * h * t * d, -2, 2);
    const key = seededValues(2, b * h * s * d);
    const value = seededValues(3, b * h * s * dv);
    const mask = Uint8Array.from(seededValues(4, b * h * t * s), (v) => (v > -0.5 ? 1 : 0));
    const bias = seededValues(5, h * t * s, -2, 2);
    const scale = Math.fround(Math.sqrt(1 / d));
    const float32 = fusedAttentionReference({
      batch: b, heads: h, queryLength: t, keyLength: s, headDim: d, valueDim: dv, scale, query, key, value,
      mask: { values: mask, strides: [h * t * s, t * s, s] },
      bias: { values: bias, strides: [0, t * s, s] },
    });
    const { values, float32Bound } = fusedAttention64({ sizes: [b, h, t, s, d, dv], scale, query, key, value, mask: { values: mask, shape: [b, h, t, s] }, bias: { values: bias, shape: [1, h, t, s] } });
    const error = Math.max(...float32.map((v, i) => Math.abs(v - (values[i] as number))));
    expect(error).toBeGreaterThan(0);
    expect(error).toBeLessThanOrEqual(float32Bound);
    expect(float32Bound).toBeLessThan(1e-5); // a few hundred u at these magnitudes: float32, not float16 (u = 2⁻¹¹)
  });
});
