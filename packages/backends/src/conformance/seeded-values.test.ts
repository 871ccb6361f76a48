import { describe, expect, it } from 'vitest';
import { seededValues } from './seeded-values.js';

describe('seededValues', () => {
  it('is deterministic per seed, different across seeds, inside [low, high)', () => {
    const a = seededValues(7, 1000, -2, 3);
    expect(seededValues(7, 1000, -2, 3)).toEqual(a);
    expect(seededValues(8, 1000, -2, 3)).not.toEqual(a);
    expect(Math.min(...a)).toBeGreaterThanOrEqual(-2);
    expect(Math.max(...a)).toBeLessThan(3);
    const mean = a.reduce((s, v) => s + v, 0) / a.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.15); // roughly uniform
  });
});
