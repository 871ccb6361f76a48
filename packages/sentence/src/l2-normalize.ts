import { div, maximum, norm, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { checkTensor } from '@attnkit/errors';

/**
 * Rows scaled to unit length, as sentence-transformers' `Normalize` module and
 * `normalize_embeddings` do (`x / max(‖x‖, 1e-12)`: a zero row stays zero). `[N, E]` → `[N, E]`.
 *
 * @example
 * l2Normalize(embeddings); // every row of length 1
 */
export function l2Normalize(x: Tensor): Tensor {
  checkTensor(x, { caller: 'l2Normalize', argument: 'x', dtype: 'float32', rank: 2, shape: '[N, E]' });
  return tidy(() => div(x, maximum(norm(x, 'euclidean', -1, true), 1e-12)));
}
