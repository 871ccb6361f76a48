import { describe, expect, it } from 'vitest';
import { transposeMatrix } from './transpose-matrix.js';

describe('transposeMatrix', () => {
  it('swaps rows and columns, and twice gives the matrix back', () => {
    const matrix = { shape: [2, 3], values: new Float32Array([1, 2, 3, 4, 5, 6]) };
    const once = transposeMatrix(matrix);
    expect([once.shape, [...once.values]]).toEqual([[3, 2], [1, 4, 2, 5, 3, 6]]);
    const twice = transposeMatrix(once);
    expect([twice.shape, [...twice.values]]).toEqual([[2, 3], [1, 2, 3, 4, 5, 6]]);
  });
});
