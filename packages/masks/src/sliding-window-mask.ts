import { tensor4d, type Tensor4D } from '@tensorflow/tfjs-core';
import { checkMemoryBudget } from '@attnkit/backends';
import { checkInteger } from '@attnkit/errors';

/**
 * Bidirectional sliding-window mask, as ModernBERT's local attention layers use it (transformers'
 * `sliding_window_bidirectional_overlay`): query `t` may attend key `s` iff `|t − s| ≤ halfWindow`
 * — itself and `halfWindow` keys on each side. ModernBERT's `halfWindow` is `local_attention / 2`
 * (rounded down). Queries and keys are the same positions (self-attention), `T = S = length`.
 * Combine it with a padding mask by broadcasting (`logicalAnd` with `[B, 1, 1, S]`).
 *
 * @returns bool `[1, 1, T, T]`
 * @example
 * slidingWindowMask(5, 1); // row 2 sees keys 1, 2, 3
 */
export function slidingWindowMask(length: number, halfWindow: number): Tensor4D {
  const caller = 'slidingWindowMask';
  checkInteger(length, { caller, argument: 'length', min: 1 });
  checkInteger(halfWindow, { caller, argument: 'halfWindow', min: 0 });
  checkMemoryBudget(caller, 'the values of the mask', [1, 1, length, length]); // before allocating
  const keep = new Uint8Array(length * length);
  for (let t = 0; t < length; t++) {
    const first = Math.max(0, t - halfWindow); // keys first .. last
    const last = Math.min(length, t + halfWindow + 1);
    keep.fill(1, t * length + first, t * length + last);
  }
  return tensor4d(keep, [1, 1, length, length], 'bool'); // [1, 1, T, T]
}
