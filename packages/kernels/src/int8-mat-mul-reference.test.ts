import { describe, expect, it } from 'vitest';
import { int8MatMulReference } from './int8-mat-mul-reference.js';

describe('int8MatMulReference', () => {
  it('computes A·Bᵀ by hand-checked numbers: A [2, 3], B [2, 3] (rows are output columns)', () => {
    const a = Int8Array.of(1, 2, 3, -4, 5, -6);
    const b = Int8Array.of(7, 8, 9, -1, 0, 1);
    expect(Array.from(int8MatMulReference(a, b, { rows: 2, cols: 2, depth: 3 }))).toEqual([1 * 7 + 2 * 8 + 3 * 9, -1 + 3, -4 * 7 + 5 * 8 - 6 * 9, 4 - 6]);
  });

  it('is exact at the int32 edge: K = 133 144 products of -128 · 127 would not fit, of 127 · 127 do', () => {
    const depth = 133_144;
    const ones = new Int8Array(depth).fill(127);
    expect(int8MatMulReference(ones, ones, { rows: 1, cols: 1, depth })[0]).toBe(127 * 127 * depth);
    expect(127 * 127 * depth).toBeLessThan(2 ** 31);
  });

  it('gives empty or zero results for zero sizes', () => {
    expect(int8MatMulReference(new Int8Array(0), new Int8Array(0), { rows: 0, cols: 3, depth: 0 }).length).toBe(0);
    expect(Array.from(int8MatMulReference(new Int8Array(0), new Int8Array(0), { rows: 2, cols: 2, depth: 0 }))).toEqual([0, 0, 0, 0]);
  });
});
