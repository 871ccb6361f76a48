import { matMul, type Tensor } from '@tensorflow/tfjs-core';
import { checkQueryKey } from './check-query-key.js';
import type { Scorer } from './scorer.js';

/**
 * Dot-product scores `q · k` (scaled dot-product attention without the scale).
 *
 * `query [B, (H,) T, D]`, `key [B, (H,) S, D]` → `[B, (H,) T, S]`.
 *
 * @example
 * const scores = dotProductScorer.score(query, key); // [B, H, T, S]
 */
export const dotProductScorer: Scorer = {
  name: 'dotProductScorer',
  score(query: Tensor, key: Tensor): Tensor {
    checkQueryKey('dotProductScorer', query, key, { sameDim: true });
    return matMul(query, key, false, true); // [.., T, D] x [.., S, D]^T -> [.., T, S]
  },
};
