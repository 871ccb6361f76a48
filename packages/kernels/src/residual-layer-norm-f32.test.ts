import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { residualLayerNormF32 } from './residual-layer-norm-f32.js';
import { seededNormals } from './testing/fused-attention-cases.js';

describe('residualLayerNormF32', () => {
  it.each([[3, 7], [2, 384], [1, 1]])('normalises each row of out + residual (rows %i, width %i) within 1e-6 of float64, in place', (rows, width) => {
    const out = seededNormals(rows * width, 1, 3);
    const residual = seededNormals(rows * width, 2);
    const gamma = seededNormals(width, 3);
    const beta = seededNormals(width, 4);
    const sums = Array.from(out, (v, i) => v + residual[i]!);
    const result = residualLayerNormF32(out, { residual, gamma, beta, epsilon: 1e-5 }, rows, width);
    expect(result).toBe(out);
    for (let r = 0; r < rows; r++) {
      const row = sums.slice(r * width, (r + 1) * width);
      const mean = row.reduce((s, v) => s + v, 0) / width;
      const variance = row.reduce((s, v) => s + (v - mean) ** 2, 0) / width;
      row.forEach((v, i) => expect(Math.abs(((v - mean) / Math.sqrt(variance + 1e-5)) * gamma[i]! + beta[i]! - out[r * width + i]!)).toBeLessThan(1e-6 * Math.max(1, Math.abs(gamma[i]!) * 4)));
    }
  });

  it.each([Number.NaN, -1, Infinity, '1'])('refuses epsilon %s with a typed error', (epsilon) => {
    const one = new Float32Array(1);
    expect(() => residualLayerNormF32(one, { residual: one, gamma: one, beta: one, epsilon: epsilon as number }, 1, 1)).toThrow(InvalidArgumentError);
  });

  it('refuses arrays of the wrong type or length, and a non-object', () => {
    const f = (n: number) => new Float32Array(n);
    expect(() => residualLayerNormF32(undefined as never, { residual: f(2), gamma: f(2), beta: f(2), epsilon: 0 }, 1, 2)).toThrow(InvalidArgumentError);
    expect(() => residualLayerNormF32(f(2), { residual: f(3), gamma: f(2), beta: f(2), epsilon: 0 }, 1, 2)).toThrow(/values.residual/);
    expect(() => residualLayerNormF32(f(2), { residual: f(2), gamma: new Float64Array(2) as never, beta: f(2), epsilon: 0 }, 1, 2)).toThrow(/values.gamma/);
    expect(() => residualLayerNormF32(f(2), null as never, 1, 2)).toThrow(InvalidArgumentError);
    expect(() => residualLayerNormF32(f(2), { residual: f(2), gamma: f(2), beta: f(2), epsilon: 0 }, 1.5, 2)).toThrow(/'rows' must be an integer/);
  });
});
