import { mean, mul, squaredDifference, sum, tensor1d, tidy, type Scalar, type Tensor1D, type Tensor2D } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkTensor, describeValue, formatShape, isTensorLike } from '@attnkit/errors';
import { checkEmbeddings } from './check-embeddings.js';
import { l2Normalize } from '@attnkit/sentence';

/** The smallest norm a row is divided by, as `torch.cosine_similarity`'s default `eps`. */
const EPS = 1e-8;

/**
 * sentence-transformers' `CosineSimilarityLoss` with its defaults (`loss_fct=MSELoss()`, no score
 * transformation): the mean squared difference between `cos(a_i, b_i)` and `labels_i`. The cosine
 * is `torch.cosine_similarity`'s: each row divided by `max(‖row‖, 1e-8)`.
 *
 * `a: [B, E]`, `b: [B, E]`, `labels: [B]` (numbers or a float32 tensor; usually in `[0, 1]` or `[-1, 1]`) → scalar.
 *
 * Differentiable: use it inside `optimizer.minimize` or `variableGrads`.
 *
 * @example
 * const loss = cosineSimilarityLoss(model.forward(left), model.forward(right), [0.9, 0.1, 0.5]); // scalar
 */
export function cosineSimilarityLoss(a: Tensor2D, b: Tensor2D, labels: readonly number[] | Tensor1D): Scalar {
  const caller = 'cosineSimilarityLoss';
  checkEmbeddings(a, caller, 'a');
  checkEmbeddings(b, caller, 'b', ['a', a]);
  const batch = a.shape[0];
  if (isTensorLike(labels)) {
    checkTensor(labels, { caller, argument: 'labels', dtype: 'float32', rank: 1, shape: '[B]' });
    if (labels.shape[0] !== batch) throw new InvalidArgumentError({ caller, argument: 'labels', expected: `a float32 tensor [B] with B = ${batch} (the rows of 'a')`, received: formatShape(labels.shape) });
  } else if (!Array.isArray(labels) || !labels.every((label) => typeof label === 'number' && Number.isFinite(label))) {
    throw new InvalidArgumentError({ caller, argument: 'labels', expected: `B = ${batch} finite numbers or a float32 tensor [B]`, received: describeValue(labels) });
  } else if (labels.length !== batch) {
    throw new InvalidArgumentError({ caller, argument: 'labels', expected: `B = ${batch} numbers (the rows of 'a')`, received: `${labels.length} numbers` });
  }
  return tidy(() => {
    const cosine = sum(mul(l2Normalize(a, EPS), l2Normalize(b, EPS)), 1); // [B, E] · [B, E] -> [B]
    return mean(squaredDifference(cosine, isTensorLike(labels) ? labels : tensor1d(labels as number[])));
  });
}
