import { describe, expect, it } from 'vitest';
import { matMul64, transposeLast64 } from './matmul64.js';

describe('matMul64 / transposeLast64', () => {
  it('multiplies batched matrices by hand-checked values', () => {
    // [[1, 2], [3, 4]] x [[5, 6], [7, 8]] = [[19, 22], [43, 50]]; second batch is the identity times 2
    const a = [1, 2, 3, 4, 2, 0, 0, 2];
    const b = [5, 6, 7, 8, 1, 2, 3, 4];
    expect(Array.from(matMul64(a, b, 2, 2, 2, 2))).toEqual([19, 22, 43, 50, 2, 4, 6, 8]);
  });
  it('broadcasts a single b over the batch', () => {
    expect(Array.from(matMul64([1, 0, 0, 1, 2, 0, 0, 2], [1, 2, 3, 4], 2, 2, 2, 2, true))).toEqual([1, 2, 3, 4, 2, 4, 6, 8]);
  });
  it('transposes the last two axes per batch', () => {
    expect(Array.from(transposeLast64([1, 2, 3, 4, 5, 6], 1, 2, 3))).toEqual([1, 4, 2, 5, 3, 6]);
  });
});
