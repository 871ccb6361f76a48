import { describe, expect, it } from 'vitest';
import { maxDifference } from './max-difference.js';

describe('maxDifference', () => {
  it('gives the max abs difference and the difference relative to the reference scale', () => {
    expect(maxDifference([1, 2.5, -4], [1, 2, -4])).toEqual({ maxAbsDiff: 0.5, maxRelDiff: 0.125 });
  });
  it('is exactly zero for identical arrays, including NaN and infinities in the same places', () => {
    expect(maxDifference([NaN, Infinity, 0], [NaN, Infinity, 0])).toEqual({ maxAbsDiff: 0, maxRelDiff: 0 });
  });
  it('never lets NaN or a wrong infinity pass', () => {
    expect(maxDifference([NaN], [1]).maxAbsDiff).toBe(Infinity);
    expect(maxDifference([1], [NaN]).maxAbsDiff).toBe(Infinity);
    expect(maxDifference([-Infinity], [Infinity]).maxAbsDiff).toBe(Infinity);
    expect(maxDifference([Infinity], [1e30]).maxAbsDiff).toBe(Infinity);
  });
  it('names the caller when lengths differ', () => {
    expect(() => maxDifference([1], [1, 2], 'myCheck')).toThrow(
      "myCheck: 'actual' must be 2 values, as many as the reference; received 1 values.",
    );
  });
});
