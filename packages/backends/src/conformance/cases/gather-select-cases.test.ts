import { describe, expect, it } from 'vitest';
import { gatherSelectCases } from './gather-select-cases.js';

describe('gatherSelectCases', () => {
  it('gather reference repeats table rows (ids 9, 9 give equal rows), select takes values from both sides', () => {
    const [gather, select] = gatherSelectCases.map((c) => Array.from(c.reference()));
    expect(gather).toHaveLength(10 * 6);
    expect(gather!.slice(12, 18)).toEqual(gather!.slice(18, 24)); // ids[2] = ids[3] = 9
    expect(select).toHaveLength(12);
    expect(gatherSelectCases.map((c) => c.tolerance[32])).toEqual([0, 0]);
  });
});
