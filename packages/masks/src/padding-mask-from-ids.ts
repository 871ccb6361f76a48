import { tensor4d, type Tensor2D, type Tensor4D } from '@tensorflow/tfjs-core';
import { readMaskIds } from './read-mask-ids.js';

/**
 * Padding mask from a Hugging Face style `attention_mask` (1 = real token, 0 = padding).
 *
 * @param attentionMask `[B, S]` of 0/1 values: an int32, float32 or bool tensor, or an array of rows (arrays or typed arrays)
 * @returns bool `[B, 1, 1, S]`
 * @example
 * paddingMaskFromIds([[1, 1, 0], [1, 0, 0]]); // shape [2, 1, 1, 3]
 */
export function paddingMaskFromIds(attentionMask: Tensor2D | readonly (readonly number[] | ArrayLike<number>)[]): Tensor4D {
  const { batch, length, values } = readMaskIds(attentionMask, 'paddingMaskFromIds');
  return tensor4d(values, [batch, 1, 1, length], 'bool'); // [B, S] -> [B, 1, 1, S]
}
