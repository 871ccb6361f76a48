import { describe, expect, it } from 'vitest';
import { halfExactValues } from './half-exact-values.js';

describe('halfExactValues', () => {
  it('gives seeded multiples of 2⁻¹⁰ in [-1, 1] (11 significant bits: exact in float16)', () => {
    const values = halfExactValues(5, 500, -1, 1);
    expect(halfExactValues(5, 500, -1, 1)).toEqual(values);
    for (const v of values) {
      expect(Number.isInteger(v * 1024)).toBe(true);
      expect(Math.abs(v)).toBeLessThanOrEqual(1);
    }
    expect(new Set(values).size).toBeGreaterThan(300); // not collapsed onto a coarse grid
  });

  it('scales the grid with the range: multiples of 2⁻⁹ up to 2', () => {
    const values = halfExactValues(6, 200, -2, 2);
    expect(values.every((v) => Number.isInteger(v * 512) && Math.abs(v) <= 2)).toBe(true);
  });
});
