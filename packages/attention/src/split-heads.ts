import { reshape, tidy, transpose, type Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkInteger, checkTensor, formatShape } from '@attnkit/errors';

/**
 * Splits the model dimension into heads: `[B, T, E] → [B, H, T, D]` with `D = E / H`.
 *
 * @example
 * splitHeads(tf.zeros([2, 5, 12]), 3).shape; // [2, 3, 5, 4]
 */
export function splitHeads(x: Tensor, numHeads: number): Tensor {
  const caller = 'splitHeads';
  checkTensor(x, { caller, argument: 'x', rank: 3, shape: '[B, T, E]' });
  checkInteger(numHeads, { caller, argument: 'numHeads', min: 1 });
  const [batch = 0, length = 0, width = 0] = x.shape;
  if (width % numHeads !== 0) {
    throw new InvalidArgumentError({ caller, argument: 'x', expected: `a last dim E divisible by numHeads = ${numHeads}`, received: formatShape(x.shape) });
  }
  const headDim = width / numHeads;
  if (length === 1 || numHeads === 1) return reshape(x, [batch, numHeads, length, headDim]); // one token (a decoding step) or one head: [B, T, H, D] and [B, H, T, D] lie the same in memory
  return tidy(() => transpose(reshape(x, [batch, length, numHeads, headDim]), [0, 2, 1, 3])); // [B, T, E] -> [B, T, H, D] -> [B, H, T, D]
}
