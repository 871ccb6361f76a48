import { scalar, tidy, where, type Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkObject, checkOptionKeys, describeValue } from '@attnkit/errors';
import { checkBoolMask } from './check-bool-mask.js';
import { maskedFillValue } from './masked-fill-value.js';

/**
 * Turns a bool mask into an additive float mask: 0 where it may attend, `fillValue` where it is
 * blocked (default: {@link maskedFillValue} for the active backend). Build it once per forward
 * and add it to the scores; it is also the attnkit → additive-mask converter.
 *
 * @returns float32, same shape as `mask`
 * @example
 * maskToBias(paddingMask([1, 2], 2)); // [[[[0, -1e9]]], [[[0, 0]]]]
 */
export function maskToBias(mask: Tensor, options: { readonly fillValue?: number } = {}): Tensor {
  checkObject(options, { caller: 'maskToBias', argument: 'options', expected: 'an options object { fillValue? } (pass a fill value as maskToBias(mask, { fillValue }))' });
  const { fillValue } = checkOptionKeys(options, ['fillValue'], 'maskToBias');
  const keep = checkBoolMask(mask, 'maskToBias');
  const fill = fillValue === undefined ? maskedFillValue() : fillValue; // null is refused below, never read as absent
  if (typeof fill !== 'number' || !Number.isFinite(Math.fround(fill)) || fill >= 0) {
    throw new InvalidArgumentError({
      caller: 'maskToBias',
      argument: 'fillValue',
      expected: 'a negative number finite in float32 (above -3.4e38; -Infinity breaks WebGL shaders and turns fully masked rows into NaN)',
      received: describeValue(fill),
    });
  }
  return tidy(() => where(keep, scalar(0), scalar(fill)));
}
