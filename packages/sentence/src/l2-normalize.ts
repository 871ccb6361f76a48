import { div, maximum, sqrt, square, sum, tidy, type Tensor, type Tensor2D } from '@tensorflow/tfjs-core';
import { checkTensor, describeValue, InvalidArgumentError } from '@attnkit/errors';

/**
 * Rows scaled to unit length, as sentence-transformers' `Normalize` module and
 * `normalize_embeddings` do (`torch.nn.functional.normalize`: `x / max(‖x‖, eps)`, eps 1e-12: a
 * zero row stays zero). `[N, E]` → `[N, E]`. Differentiable, with a finite gradient for a zero row
 * (the norm is taken as `sqrt(max(Σx², eps²))`, the same value; `tf.norm`'s gradient there is NaN),
 * so it can sit inside a training loss. A `Tensor2D` (`x` is checked to be rank 2).
 *
 * @example
 * const unit = l2Normalize(embeddings); // [N, E], every row of length 1
 */
export function l2Normalize(x: Tensor, eps = 1e-12): Tensor2D {
  checkTensor(x, { caller: 'l2Normalize', argument: 'x', dtype: 'float32', rank: 2, shape: '[N, E]' });
  if (typeof eps !== 'number' || !(eps > 0) || !Number.isFinite(eps)) throw new InvalidArgumentError({ caller: 'l2Normalize', argument: 'eps', expected: 'a finite number > 0', received: describeValue(eps) });
  return tidy(() => div(x, sqrt(maximum(sum(square(x), -1, true), eps * eps)))); // [N, E] / [N, 1]
}
