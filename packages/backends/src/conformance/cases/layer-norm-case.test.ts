import { describe, expect, it } from 'vitest';
import { layerNormCase } from './layer-norm-case.js';

describe('layerNormCase', () => {
  it('has rows that are affine images of zero-mean, unit-variance rows (same affine map per column)', () => {
    const out = layerNormCase.reference();
    expect(out).toHaveLength(10 * 16);
    // (out[r][j] - out[r'][j]) / gamma_j must equal normalised differences; check via the column means:
    // every row normalised has mean 0, so the mean over rows of column j is beta_j + gamma_j * mean_r(norm)
    const rowMeans = Array.from({ length: 10 }, (_, r) => out.slice(r * 16, r * 16 + 16).reduce((s, v) => s + v, 0) / 16);
    expect(new Set(rowMeans.map((m) => m.toFixed(3))).size).toBeGreaterThan(1); // gamma ≠ 1: rows differ
    expect(layerNormCase.kernels).toEqual(['Mean', 'Rsqrt']);
  });
});
