import { matMul, mul, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { checkQueryKey } from './check-query-key.js';
import type { Scorer } from './scorer.js';

/**
 * Scaled dot-product scores `(q / √D) · k`. The query is scaled before the
 * product, as `nn.MultiheadAttention` does, so results match PyTorch bit for bit more often.
 *
 * `query [B, (H,) T, D]`, `key [B, (H,) S, D]` → `[B, (H,) T, S]`.
 *
 * @example
 * const scores = scaledDotProductScorer.score(query, key); // [B, H, T, S]
 */
export const scaledDotProductScorer: Scorer = {
  name: 'scaledDotProductScorer',
  score(query: Tensor, key: Tensor): Tensor {
    const { queryDim } = checkQueryKey('scaledDotProductScorer', query, key, { sameDim: true });
    return tidy(() => matMul(mul(query, Math.sqrt(1 / queryDim)), key, false, true)); // [.., T, S]
  },
};
