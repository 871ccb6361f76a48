import { InvalidArgumentError, checkTensor, formatShape, type TensorRequirement } from '@attnkit/errors';
import type { Tensor2D } from '@tensorflow/tfjs-core';

/**
 * Checks a batch of embeddings `[B, E]` for a loss: a live float32 tensor of rank 2 with B ≥ 1 and
 * E ≥ 1 and, when `like` is given, the same shape as that one (named in the message), or throws
 * {@link InvalidArgumentError}.
 *
 * @example
 * checkEmbeddings(positives, 'multipleNegativesRankingLoss', 'positives', ['anchors', anchors]);
 * // "... 'positives' must be a float32 tensor [B, E] of the shape of 'anchors' [4, 8]; received [3, 8]."
 */
export function checkEmbeddings(value: unknown, caller: string, argument: string, like?: readonly [string, Tensor2D]): Tensor2D {
  const requirement: TensorRequirement = { caller, argument, dtype: 'float32', rank: 2, shape: '[B, E]' };
  const x = checkTensor(value, requirement) as Tensor2D;
  if (like !== undefined) {
    const [name, reference] = like;
    if (x.shape[0] !== reference.shape[0] || x.shape[1] !== reference.shape[1]) {
      throw new InvalidArgumentError({ caller, argument, expected: `a float32 tensor [B, E] of the shape of '${name}' ${formatShape(reference.shape)}`, received: formatShape(x.shape) });
    }
  } else if (x.shape[0] === 0 || x.shape[1] === 0) {
    throw new InvalidArgumentError({ caller, argument, expected: 'a float32 tensor [B, E] with B ≥ 1 and E ≥ 1', received: formatShape(x.shape), hint: 'A loss over an empty batch has no value (PyTorch gives NaN).' });
  }
  return x;
}
