import { describe, expect, it } from 'vitest';
import { seededIntegers } from './seeded-integers.js';

describe('seededIntegers', () => {
  it('repeats for a seed, differs between seeds, and stays in [0, n)', () => {
    const draw = (seed: number) => {
      const next = seededIntegers(seed);
      return Array.from({ length: 200 }, () => next(7));
    };
    expect(draw(3)).toEqual(draw(3));
    expect(draw(3)).not.toEqual(draw(4));
    expect(draw(3).every((v) => Number.isInteger(v) && v >= 0 && v < 7)).toBe(true);
    expect(new Set(draw(3)).size).toBe(7);
  });
});
