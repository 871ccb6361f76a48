import type { Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkTensor, formatShape } from '@attnkit/errors';

/**
 * Checks a layer input: a live float32 tensor of rank ≥ 1 whose last axis is `width`
 * (`name` says where the width comes from, e.g. `'inFeatures'`).
 *
 * @example
 * checkWidth(x, 'Linear.forward', 'x', 8, 'inFeatures'); // x must be [..., 8]
 */
export function checkWidth(x: unknown, caller: string, argument: string, width: number, name: string): Tensor {
  const input = checkTensor(x, { caller, argument, dtype: 'float32', shape: `[..., ${name}]` });
  if (input.rank === 0 || input.shape[input.rank - 1] !== width) {
    throw new InvalidArgumentError({ caller, argument, expected: `a float32 tensor [..., ${name}] with ${name} = ${width}`, received: formatShape(input.shape) });
  }
  return input;
}
