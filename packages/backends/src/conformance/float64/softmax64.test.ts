import { describe, expect, it } from 'vitest';
import { softmax64 } from './softmax64.js';

describe('softmax64', () => {
  it('normalises each row and is shift-invariant even for huge logits', () => {
    // 1000 + log(3) is itself rounded (~1e-13), hence 12 digits.
    const out = softmax64([0, Math.log(3), 1000, 1000 + Math.log(3)], 2);
    [0.25, 0.75, 0.25, 0.75].forEach((p, i) => expect(out[i]).toBeCloseTo(p, 12));
  });
  it('fills blocked positions before normalising', () => {
    expect(Array.from(softmax64([5, 1, 1], 3, [0, 1, 1], -1e9))).toEqual([0, 0.5, 0.5]);
  });
});
