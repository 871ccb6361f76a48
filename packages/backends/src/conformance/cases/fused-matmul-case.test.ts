import { describe, expect, it } from 'vitest';
import { fusedMatMulCases } from './fused-matmul-case.js';

describe('fusedMatMulCases', () => {
  it('store the operands three ways but describe one product plus bias', () => {
    const [plain, ...rest] = fusedMatMulCases.map((c) => Array.from(c.reference()));
    for (const other of rest) expect(other).toEqual(plain);
    expect(fusedMatMulCases.map((c) => c.kernels)).toEqual([['_FusedMatMul'], ['_FusedMatMul'], ['_FusedMatMul']]);
  });
});
