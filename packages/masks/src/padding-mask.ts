import { tensor4d, type Tensor1D, type Tensor4D } from '@tensorflow/tfjs-core';
import { checkMemoryBudget } from '@attnkit/backends';
import { InvalidArgumentError, checkInteger, checkTensor, describeValue, isTensorLike } from '@attnkit/errors';

/**
 * Padding mask from sequence lengths (`arange(S) < lengths`): key position `s` of
 * sequence `b` may be attended iff `s < lengths[b]`. A length of 0 blocks every key of that
 * sequence (attention then returns zeros for it).
 *
 * @param lengths `[B]` int32 tensor, array or typed array of integers in `[0, keyLength]`
 * @param keyLength S, the padded key length
 * @returns bool `[B, 1, 1, S]`, broadcastable over heads and queries
 * @example
 * paddingMask([3, 1], 4); // [[[[true, true, true, false]]], [[[true, false, false, false]]]]
 */
export function paddingMask(lengths: Tensor1D | readonly number[] | ArrayLike<number>, keyLength: number): Tensor4D {
  const caller = 'paddingMask';
  checkInteger(keyLength, { caller, argument: 'keyLength', min: 1 });
  const fail = (received: string): never => {
    throw new InvalidArgumentError({ caller, argument: 'lengths', expected: 'an int32 tensor [B], or an array or typed array of integers', received });
  };
  // one read of every element, holes included (a sparse array's hole is undefined, not skipped; a
  // proxy or getter cannot change a value between the check and its use)
  const values: unknown[] = Array.isArray(lengths) || (ArrayBuffer.isView(lengths) && !(lengths instanceof DataView))
    ? Array.from(lengths as ArrayLike<unknown>)
    : isTensorLike(lengths)
      ? Array.from(checkTensor(lengths, { caller, argument: 'lengths', dtype: 'int32', rank: 1, shape: '[B]' }).dataSync())
      : fail(describeValue(lengths));
  if (values.length === 0) {
    throw new InvalidArgumentError({ caller, argument: 'lengths', expected: 'at least one length (B ≥ 1)', received: 'an empty list' });
  }
  for (let b = 0; b < values.length; b++) {
    const length = values[b];
    if (typeof length !== 'number' || !Number.isInteger(length) || length < 0 || length > keyLength) {
      const tooLong = typeof length === 'number' && length > keyLength;
      throw new InvalidArgumentError({
        caller,
        argument: `lengths[${b}]`,
        expected: `an integer from 0 to keyLength = ${keyLength}`,
        received: describeValue(length),
        ...(tooLong ? { hint: 'Pad the keys to the longest sequence, or truncate that sequence.' } : {}),
      });
    }
  }
  checkMemoryBudget(caller, 'the values of the mask', [values.length, 1, 1, keyLength]); // before allocating
  const keep = new Uint8Array(values.length * keyLength);
  values.forEach((length, b) => keep.fill(1, b * keyLength, b * keyLength + (length as number)));
  return tensor4d(keep, [values.length, 1, 1, keyLength], 'bool'); // [B, 1, 1, S]
}
