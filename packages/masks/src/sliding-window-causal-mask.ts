import { tensor4d, type Tensor4D } from '@tensorflow/tfjs-core';
import { checkMemoryBudget } from '@attnkit/backends';
import { checkInteger, checkOptionKeys } from '@attnkit/errors';
import type { CausalMaskOptions } from './causal-mask.js';

/**
 * Sliding-window causal mask, as Mistral and Qwen2 define `sliding_window` (transformers'
 * `sliding_window_causal_mask_function`): query `t` may attend key `s` iff
 * `t + offset − slidingWindow < s ≤ t + offset` — itself and the `slidingWindow − 1` keys before it.
 * `offset` as in `causalMask` (default `keyLength − queryLength`: queries at the end of the keys, as
 * in decoding with a cache).
 *
 * @returns bool `[1, 1, T, S]`
 * @example
 * slidingWindowCausalMask(5, 5, 3); // row 4 sees keys 2, 3, 4
 * slidingWindowCausalMask(1, 9, 4); // one new query after 8 cached keys: keys 5..8
 */
export function slidingWindowCausalMask(queryLength: number, keyLength: number, slidingWindow: number, options: CausalMaskOptions = {}): Tensor4D {
  const caller = 'slidingWindowCausalMask';
  checkInteger(queryLength, { caller, argument: 'queryLength', min: 1 });
  checkInteger(keyLength, { caller, argument: 'keyLength', min: 1 });
  checkInteger(slidingWindow, { caller, argument: 'slidingWindow', min: 1 });
  const given = checkOptionKeys(options, ['offset'], caller).offset;
  const offset = given === undefined ? keyLength - queryLength : given; // null is refused below, never read as absent
  checkInteger(offset, { caller, argument: 'offset' });
  checkMemoryBudget(caller, 'the values of the mask', [1, 1, queryLength, keyLength]); // before allocating
  const keep = new Uint8Array(queryLength * keyLength);
  for (let t = 0; t < queryLength; t++) {
    const first = Math.max(0, t + offset - slidingWindow + 1); // keys first .. last
    const last = Math.min(keyLength, t + offset + 1);
    if (last > first) keep.fill(1, t * keyLength + first, t * keyLength + last);
  }
  return tensor4d(keep, [1, 1, queryLength, keyLength], 'bool'); // [1, 1, T, S]
}
