import { describe, expect, it } from 'vitest';
import { formatSimilarityMatrix } from './format-similarity-matrix.js';

describe('formatSimilarityMatrix', () => {
  it('numbers the columns and rows and prints three decimals, aligned', () => {
    expect(formatSimilarityMatrix([[1, 0.5], [0.5, -0.25]])).toEqual([
      '           1      2',
      '   1   1.000  0.500',
      '   2   0.500 -0.250',
    ]);
  });
});
