import type { Tensor } from '@tensorflow/tfjs-core';
import { describeValue, InvalidArgumentError } from '@attnkit/errors';
import { ACTIVATIONS, type ActivationFunction } from '../ops/activation-by-name.js';
import { Int8Linear } from './int8-linear.js';
import { Linear } from './linear.js';

/**
 * `activation(linear.forward(x))`. When the activation is exact GELU (`ACTIVATIONS.gelu`) it is
 * `linear.forward(x, { activation: 'gelu' })`: fused into the kernel where one runs (an
 * `Int8Linear`; a `Linear` on wasm outside gradient recording), one pass over the output with the
 * numbers of the wasm backend's GELU kernel. Otherwise the two calls as written.
 * Shapes: `x [..., in]` → `[..., out]`.
 *
 * @example
 * const intermediate = linearThenActivation(layer.intermediate.dense, attended, layer.activation); // [B, T, I]
 */
export function linearThenActivation(linear: Linear | Int8Linear, x: Tensor, activation: ActivationFunction): Tensor {
  const caller = 'linearThenActivation';
  if (!(linear instanceof Linear || linear instanceof Int8Linear)) throw new InvalidArgumentError({ caller, argument: 'linear', expected: 'a Linear or an Int8Linear', received: describeValue(linear) });
  if (typeof activation !== 'function') throw new InvalidArgumentError({ caller, argument: 'activation', expected: 'an activation function (x) => tensor, such as ACTIVATIONS.gelu', received: describeValue(activation) });
  if (activation === ACTIVATIONS['gelu']) return linear.forward(x, { activation: 'gelu' });
  return activation(linear.forward(x));
}
