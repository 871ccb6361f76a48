import { describe, expect, it } from 'vitest';
import { fusedAttentionCases } from './fused-attention-cases.js';

describe('fusedAttentionCases', () => {
  it('runs four masks and biases on each kernel, simd and js against the same reference', () => {
    expect(fusedAttentionCases.map((c) => c.name.split(',')[0])).toEqual([...Array(4).fill('fusedAttention simd'), ...Array(4).fill('fusedAttention js')]);
    for (let n = 0; n < 4; n++) expect(fusedAttentionCases[n + 4]!.reference()).toEqual(fusedAttentionCases[n]!.reference());
  });

  it('gives the blocked query rows of the [B, 1, T, 1] mask exact zeros, and every other output a value', () => {
    const rows = fusedAttentionCases[2]!.reference(); // [2, 2, 5, 8]: row 2 of batch 0, row 4 of batch 1
    const zero = (b: number, h: number, i: number) => rows.slice(((b * 2 + h) * 5 + i) * 8, ((b * 2 + h) * 5 + i + 1) * 8).every((v) => v === 0);
    expect([zero(0, 0, 2), zero(0, 1, 2), zero(1, 0, 4), zero(1, 1, 4)]).toEqual([true, true, true, true]);
    expect(rows.filter((v) => v === 0)).toHaveLength(4 * 8);
  });

  it('tolerates float32 accumulation: between 1e-7 and 1e-5 at these sizes', () => {
    for (const c of fusedAttentionCases) {
      expect(c.tolerance[32]).toBeGreaterThan(1e-7);
      expect(c.tolerance[32]).toBeLessThan(1e-5);
    }
  });
});
