import { describe, expect, it } from 'vitest';
import { batchedMatMulCases } from './batched-matmul-cases.js';

describe('batchedMatMulCases', () => {
  it('cover all four transpose combinations and batch broadcasting, with [6·4·7] references', () => {
    expect(batchedMatMulCases.map((c) => c.name)).toEqual([
      'matMul [2,3,4,5]x[2,3,5,7]',
      'matMul transposeB [2,3,4,5]x[2,3,7,5]',
      'matMul transposeA [2,3,5,4]x[2,3,5,7]',
      'matMul transposeA transposeB [2,3,5,4]x[2,3,7,5]',
      'matMul broadcast [2,3,4,5]x[1,1,5,7]',
    ]);
    // one stored array read in four layouts: four different products, each [B·H, T, S] = [6, 4, 7]
    const references = batchedMatMulCases.map((c) => Array.from(c.reference()));
    for (const reference of references) expect(reference).toHaveLength(6 * 4 * 7);
    expect(new Set(references.map((r) => r.join())).size).toBe(5); // (broadcast shares batch 0 with plain: same seed prefix)
  });
});
