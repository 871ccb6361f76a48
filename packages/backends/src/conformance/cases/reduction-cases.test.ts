import { describe, expect, it } from 'vitest';
import { reductionCases } from './reduction-cases.js';

describe('reductionCases', () => {
  it('sum over 50 values is 50 × their mean; max has one value per (row, column)', () => {
    const [sum, max, mean] = reductionCases.map((c) => Array.from(c.reference()));
    expect(sum).toHaveLength(12);
    sum!.forEach((s, i) => expect(s).toBeCloseTo(50 * mean![i]!, 12));
    expect(max).toHaveLength(3 * 50);
  });
});
