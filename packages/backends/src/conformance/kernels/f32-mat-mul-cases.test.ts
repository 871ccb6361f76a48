import { describe, expect, it } from 'vitest';
import { f32MatMulCases } from './f32-mat-mul-cases.js';

describe('f32MatMulCases', () => {
  const byName = new Map(f32MatMulCases.map((c) => [c.name, c]));

  it('runs two shapes on each of the two kernels', () => {
    expect([...byName.keys()]).toEqual(['relaxed-simd', 'simd'].flatMap((k) => [`f32MatMul ${k} + bias [2,7,48]x[40,48]ᵀ`, `f32MatMul ${k} [3,5,37]x[23,37]ᵀ`]));
  });

  it('references the same float64 product for both kernels, with a bound of K + 1 roundings of the magnitudes', () => {
    for (const shape of [' + bias [2,7,48]x[40,48]ᵀ', ' [3,5,37]x[23,37]ᵀ']) {
      const [relaxed, simd] = ['relaxed-simd', 'simd'].map((k) => byName.get(`f32MatMul ${k}${shape}`)!);
      expect(Array.from(relaxed!.reference())).toEqual(Array.from(simd!.reference()));
      expect(relaxed!.tolerance).toEqual(simd!.tolerance);
    }
    for (const c of f32MatMulCases) {
      const largest = Math.max(...c.reference().map(Math.abs));
      expect(c.tolerance[32]).toBeGreaterThan(2 ** -24 * largest); // at least one rounding of the output
      expect(c.tolerance[32]).toBeLessThan(1e-4); // and far below a wrong element (inputs ~1, weights ~0.1)
      expect(c.tolerance[16]).toBeGreaterThan(c.tolerance[32]);
    }
  });
});
