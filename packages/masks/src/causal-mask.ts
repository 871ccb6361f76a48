import { tensor4d, type Tensor4D } from '@tensorflow/tfjs-core';
import { checkMemoryBudget } from '@attnkit/backends';
import { checkInteger, checkOptionKeys } from '@attnkit/errors';

/** Options of {@link causalMask}. */
export interface CausalMaskOptions {
  /**
   * Query `t` may attend key `s` iff `s ≤ t + offset`. Default `keyLength - queryLength`: queries
   * aligned to the end of the keys (the last query sees every key), as in decoding with a cache.
   * PyTorch's `is_causal` / `tril()` uses `offset: 0` (aligned to the start).
   */
  readonly offset?: number;
}

/**
 * Causal (lower-triangular) mask for decoders: query `t` may attend key `s` iff `s ≤ t + offset`.
 * Rows with `t + offset < 0` block every key (attention then returns zeros for them).
 *
 * @returns bool `[1, 1, T, S]`
 * @example
 * causalMask(3, 3);              // lower triangle, diagonal included
 * causalMask(2, 5);              // offset 3: query 0 sees keys 0..3, query 1 sees all 5
 * causalMask(2, 5, { offset: 0 }); // torch.ones(2, 5).tril()
 */
export function causalMask(queryLength: number, keyLength: number, options: CausalMaskOptions = {}): Tensor4D {
  const caller = 'causalMask';
  checkInteger(queryLength, { caller, argument: 'queryLength', min: 1 });
  checkInteger(keyLength, { caller, argument: 'keyLength', min: 1 });
  const given = checkOptionKeys(options, ['offset'], caller).offset;
  const offset = given === undefined ? keyLength - queryLength : given; // null is no offset: refused below, never read as absent
  checkInteger(offset, { caller, argument: 'offset' });
  checkMemoryBudget(caller, 'the values of the mask', [1, 1, queryLength, keyLength]); // before allocating (a [T, S] past 2³² elements is no typed array)
  const keep = new Uint8Array(queryLength * keyLength);
  for (let t = 0; t < queryLength; t++) {
    const last = Math.min(keyLength, t + offset + 1); // keys 0 .. t + offset
    if (last > 0) keep.fill(1, t * keyLength, t * keyLength + last);
  }
  return tensor4d(keep, [1, 1, queryLength, keyLength], 'bool'); // [1, 1, T, S]
}
