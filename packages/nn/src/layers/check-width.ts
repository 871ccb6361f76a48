import type { Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkTensor, describeValue, formatShape } from '@attnkit/errors';

/**
 * Checks a layer input: a live float32 tensor of rank ≥ 1 whose last axis is `width`
 * (`name` says where the width comes from, e.g. `'inFeatures'`).
 *
 * @example
 * checkWidth(x, 'Linear.forward', 'x', 8, 'inFeatures'); // x must be [..., 8]
 */
export function checkWidth(x: unknown, caller: string, argument: string, width: number, name: string): Tensor {
  if (!Number.isInteger(width) || width < 0) throw new InvalidArgumentError({ caller: 'checkWidth', argument: 'width', expected: 'the width the last axis must have (an integer ≥ 0)', received: describeValue(width) });
  const label = typeof name === 'string' ? name : describeValue(name); // only named in messages
  const input = checkTensor(x, { caller, argument, dtype: 'float32', shape: `[..., ${label}]` });
  if (input.rank === 0 || input.shape[input.rank - 1] !== width) {
    throw new InvalidArgumentError({ caller, argument, expected: `a float32 tensor [..., ${label}] with ${label} = ${width}`, received: formatShape(input.shape) });
  }
  return input;
}
