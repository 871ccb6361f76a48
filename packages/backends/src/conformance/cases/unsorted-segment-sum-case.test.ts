import { describe, expect, it } from 'vitest';
import { unsortedSegmentSumCase } from './unsorted-segment-sum-case.js';

describe('unsortedSegmentSumCase', () => {
  it('sums rows by id and leaves the empty segment 3 at zero', () => {
    const out = Array.from(unsortedSegmentSumCase.reference());
    expect(out).toHaveLength(5 * 4);
    expect(out.slice(12, 16)).toEqual([0, 0, 0, 0]);
    expect(out.slice(0, 4).some((v) => v !== 0)).toBe(true);
  });
});
