import { describe, expect, it } from 'vitest';
import { int8MatMulCases } from './int8-mat-mul-cases.js';

describe('int8MatMulCases', () => {
  const byName = new Map(int8MatMulCases.map((c) => [c.name, c]));
  const pair = (shape: string) => ['relaxed-simd', 'simd', 'js'].map((kernel) => byName.get(`int8MatMul ${kernel}${shape}`)!);

  it('runs two shapes on each of the three kernels', () => {
    expect([...byName.keys()]).toEqual(['relaxed-simd', 'simd', 'js'].flatMap((k) => [`int8MatMul ${k} + bias [2,7,48]x[48,40]`, `int8MatMul ${k} [3,5,37]x[37,23]`]));
  });

  it('references the 7-bit product for relaxed-simd and the same 8-bit one for simd and js; the zero row is exactly 0 without a bias', () => {
    for (const shape of [' + bias [2,7,48]x[48,40]', ' [3,5,37]x[37,23]']) {
      const [relaxed, simd, js] = pair(shape).map((c) => c.reference());
      expect(js).toEqual(simd);
      expect(relaxed).not.toEqual(simd);
      const gap = Math.max(...relaxed!.map((v, i) => Math.abs(v - (simd![i] as number))));
      expect(gap).toBeGreaterThan(1e-3); // one bit of activation precision, far above any tolerance
    }
    expect(Array.from(pair(' [3,5,37]x[37,23]')[1]!.reference().slice(4 * 23, 5 * 23))).toEqual(Array(23).fill(0));
  });

  it('tolerates float32 epilogue rounding only: a few ulps of outputs of magnitude ~1', () => {
    for (const c of int8MatMulCases) {
      const largest = Math.max(...c.reference().map(Math.abs));
      expect(c.tolerance[32]).toBeGreaterThan(2 ** -24 * largest);
      expect(c.tolerance[32]).toBeLessThan(4 * 2 ** -24 * Math.max(1, largest));
      expect(c.tolerance[16]).toBeGreaterThan(c.tolerance[32]);
    }
  });
});
