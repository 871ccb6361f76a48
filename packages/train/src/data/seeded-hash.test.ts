import { describe, expect, it } from 'vitest';
import { seededHash } from './seeded-hash.js';

describe('seededHash', () => {
  it('is a fixed 32-bit number for a text and seed, and changes with either', () => {
    const h = seededHash('n02086723', 0);
    expect(Number.isInteger(h) && h >= 0 && h < 2 ** 32).toBe(true);
    expect(seededHash('n02086723', 0)).toBe(h);
    expect(seededHash('n02086723', 1)).not.toBe(h);
    expect(seededHash('n02086724', 0)).not.toBe(h);
    expect([seededHash('', 0), seededHash('a', 0), seededHash('a', 2 ** 32 - 1)]).toEqual(PINNED);
  });

  it('spreads similar ids evenly over [0, 2^32)', () => {
    const buckets = new Array<number>(10).fill(0);
    for (let i = 0; i < 20_000; i++) buckets[Math.floor((seededHash(`n${String(i).padStart(8, '0')}`, 7) / 2 ** 32) * 10)]!++;
    for (const b of buckets) expect(Math.abs(b - 2000)).toBeLessThan(200); // ±10 % (binomial sd ≈ 42)
  });
});

// Pinned so that a change of the hash (which would change every split) shows up here.
const PINNED = [2872998923, 444641715, 40765807];
