import { describe, expect, it } from 'vitest';
import { seededRandom, shuffled } from './seeded-random.js';

describe('seededRandom', () => {
  it('gives the same sequence for the same seed and stream, others for others, in [0, 1)', () => {
    const draw = (...seed: [number, ...number[]]) => Array.from({ length: 5 }, seededRandom(...seed));
    expect(draw(42, 0)).toEqual(draw(42, 0));
    expect(draw(42, 0)).not.toEqual(draw(42, 1));
    expect(draw(42)).not.toEqual(draw(43));
    const many = Array.from({ length: 10_000 }, seededRandom(7));
    expect(Math.min(...many)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...many)).toBeLessThan(1);
    expect(many.reduce((a, b) => a + b) / many.length).toBeCloseTo(0.5, 1);
  });

  it('shuffled returns a permutation of a copy', () => {
    const items = Array.from({ length: 50 }, (_, i) => i);
    const out = shuffled(items, seededRandom(1));
    expect(out).not.toEqual(items);
    expect([...out].sort((a, b) => a - b)).toEqual(items);
    expect(items[0]).toBe(0);
  });
});
