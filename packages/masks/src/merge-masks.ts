import { clone, logicalAnd, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { broadcastShapes } from '@attnkit/errors';
import { checkBoolMask } from './check-bool-mask.js';

/**
 * Combines masks with logical AND (a key may be attended only if every mask allows it),
 * broadcasting their shapes. `undefined` means "no mask" and is skipped. The one place where
 * attnkit merges masks.
 *
 * @returns a new bool tensor of the broadcast shape (a copy if only one mask is given), or
 *   `undefined` if every argument is `undefined`
 * @example
 * mergeMasks(paddingMask([3, 2], 3), causalMask(3, 3)); // [2, 1, 3, 3]
 * mergeMasks(undefined, undefined); // undefined
 */
export function mergeMasks(...masks: ReadonlyArray<Tensor | undefined>): Tensor | undefined {
  const present: Tensor[] = [];
  masks.forEach((mask, i) => {
    if (mask !== undefined) present.push(checkBoolMask(mask, 'mergeMasks', `masks[${i}]`));
  });
  if (present.length === 0) return undefined;
  present.reduce<number[]>((shape, mask) => broadcastShapes(shape, mask.shape, 'mergeMasks', 'masks'), []);
  return tidy(() => present.slice(1).reduce((merged, mask) => logicalAnd(merged, mask), clone(present[0] as Tensor)));
}
