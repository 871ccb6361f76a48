import type { Tensor } from '@tensorflow/tfjs-core';
import { describeValue, InvalidArgumentError } from '@attnkit/errors';
import { ACTIVATIONS, type ActivationFunction } from '../ops/activation-by-name.js';
import { Int8Linear } from './int8-linear.js';
import { Linear } from './linear.js';

/**
 * `activation(linear.forward(x))`, with the activation fused into the int8 kernel when `linear`
 * is an `Int8Linear` and the activation is exact GELU (`ACTIVATIONS.gelu`): one pass over the
 * output, the numbers of the wasm backend's GELU kernel. Otherwise the two calls as written.
 * Shapes: `x [..., in]` → `[..., out]`.
 *
 * @example
 * const intermediate = linearThenActivation(layer.intermediate.dense, attended, layer.activation); // [B, T, I]
 */
export function linearThenActivation(linear: Linear | Int8Linear, x: Tensor, activation: ActivationFunction): Tensor {
  const caller = 'linearThenActivation';
  if (!(linear instanceof Linear || linear instanceof Int8Linear)) throw new InvalidArgumentError({ caller, argument: 'linear', expected: 'a Linear or an Int8Linear', received: describeValue(linear) });
  if (typeof activation !== 'function') throw new InvalidArgumentError({ caller, argument: 'activation', expected: 'an activation function (x) => tensor, such as ACTIVATIONS.gelu', received: describeValue(activation) });
  if (linear instanceof Int8Linear && activation === ACTIVATIONS['gelu']) return linear.forward(x, { activation: 'gelu' });
  return activation(linear.forward(x));
}
