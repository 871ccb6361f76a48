import { tensor2d, type Tensor2D } from '@tensorflow/tfjs-core';
import { readMaskIds } from '@attnkit/masks';

/**
 * Position ids from a Hugging Face `attention_mask` (1 = token, 0 = padding), as transformers'
 * `generate` makes them (`attention_mask.cumsum(-1) - 1`, padding set to 0): each row counts its own
 * tokens from 0, so a left-padded row's first token is position 0 like any other row's. `KvCache.step`
 * continues the count step after step.
 *
 * `attentionMask [B, T]` (0/1 tensor or rows) → int32 `[B, T]` (the caller disposes it).
 *
 * @example
 * positionIdsFromMask([[0, 0, 1, 1], [1, 1, 1, 1]]); // [[0, 0, 0, 1], [0, 1, 2, 3]]
 */
export function positionIdsFromMask(attentionMask: Tensor2D | readonly (readonly number[] | ArrayLike<number>)[]): Tensor2D {
  const { batch, length, values } = readMaskIds(attentionMask, 'positionIdsFromMask');
  const positions = new Int32Array(batch * length);
  for (let b = 0; b < batch; b++) {
    let count = 0;
    for (let t = 0; t < length; t++) if (values[b * length + t] === 1) positions[b * length + t] = count++;
  }
  return tensor2d(positions, [batch, length], 'int32');
}
