import { reshape, tidy, transpose, type Tensor } from '@tensorflow/tfjs-core';
import { checkTensor } from '@attnkit/errors';

/**
 * Concatenates the heads back into the model dimension: `[B, H, T, D] → [B, T, H·D]`.
 *
 * @example
 * mergeHeads(tf.zeros([2, 3, 5, 4])).shape; // [2, 5, 12]
 */
export function mergeHeads(x: Tensor): Tensor {
  checkTensor(x, { caller: 'mergeHeads', argument: 'x', rank: 4, shape: '[B, H, T, D]' });
  const [batch = 0, heads = 0, length = 0, headDim = 0] = x.shape;
  if (length === 1 || heads === 1) return reshape(x, [batch, length, heads * headDim]); // one token (a decoding step) or one head: [B, H, T, D] and [B, T, H, D] lie the same in memory
  return tidy(() => reshape(transpose(x, [0, 2, 1, 3]), [batch, length, heads * headDim])); // [B, H, T, D] -> [B, T, H, D] -> [B, T, E]
}
