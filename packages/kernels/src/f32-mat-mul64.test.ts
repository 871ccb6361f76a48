import { describe, expect, it } from 'vitest';
import { f32MatMul64 } from './f32-mat-mul64.js';

describe('f32MatMul64', () => {
  it('is x · weightᵀ + bias in float64, with a rounding bound that grows with K and the magnitudes', () => {
    const x = Float32Array.of(1, 2, 3, 4, 5, 6); // [2, 3]
    const weight = Float32Array.of(1, 0, -1, 0.5, 0.5, 0.5); // [2, 3]
    const { values, float32Bound } = f32MatMul64(x, 2, weight, 2, 3, Float32Array.of(10, -10));
    expect(Array.from(values)).toEqual([1 - 3 + 10, 3 - 10, 4 - 6 + 10, 7.5 - 10]);
    const gamma = (4 * 2 ** -24) / (1 - 4 * 2 ** -24);
    expect(float32Bound).toBeCloseTo(gamma * (10 + 4 + 6), 20); // the second row's first output: |10| + |4 · 1| + |6 · -1|
    expect(f32MatMul64(x, 2, weight, 2, 3, undefined).float32Bound).toBeCloseTo(gamma * 10, 20);
  });
});
