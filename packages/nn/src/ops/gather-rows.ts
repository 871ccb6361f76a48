import type { Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkTensor, formatShape } from '@attnkit/errors';
import { embeddingLookup } from './embedding-lookup.js';

/**
 * Rows of `x [N, E]` picked by `indices` int32 `[M]` → `[M, E]`, differentiable with respect to
 * `x` the way PyTorch's indexing is: the gradient of a row picked k times is the sum of its k
 * incoming gradients. Unlike tfjs' `gather`, the gradient is one `scatterND` (tfjs' goes through
 * `UnsortedSegmentSum`, which loops over every row of `x` per index on cpu and wasm and fails to
 * compile its shader on webgl for some index counts). Every index is checked to lie in `[0, N)`.
 *
 * @example
 * const masked = gatherRows(reshape(hidden, [B * T, E]), positions); // [B·T, E], [M] -> [M, E]
 */
export function gatherRows(x: Tensor, indices: Tensor): Tensor {
  const caller = 'gatherRows';
  checkTensor(x, { caller, argument: 'x', dtype: 'float32', rank: 2, shape: '[N, E]' });
  checkTensor(indices, { caller, argument: 'indices', dtype: 'int32', rank: 1, shape: '[M]' });
  const rows = x.shape[0] as number;
  const values = indices.dataSync(); // M integers: an index out of range reads garbage on some backends, so none is let through
  const bad = values.findIndex((i) => i < 0 || i >= rows);
  if (bad >= 0) throw new InvalidArgumentError({ caller, argument: `indices[${bad}]`, expected: `a row of x ${formatShape(x.shape)}, in [0, ${rows})`, received: String(values[bad]) });
  return embeddingLookup(x, indices);
}
