import { add, clipByValue, erf, leakyRelu, mul, relu, sigmoid, softplus, square, tanh, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, describeValue } from '@attnkit/errors';
import { gelu } from './gelu.js';
import { geluTanh } from './gelu-tanh.js';
import { relu6 } from './relu6.js';

/** An activation: `x [...]` → same shape, differentiable. */
export type ActivationFunction = (x: Tensor) => Tensor;

const identity: ActivationFunction = (x) => x.clone();

/**
 * The activations Hugging Face configs name in `hidden_act` (transformers' `ACT2FN`), each equal
 * to its PyTorch definition (checked against transformers on reference fixtures).
 */
export const ACTIVATIONS: Readonly<Record<string, ActivationFunction>> = Object.freeze({
  gelu,
  gelu_python: gelu,
  gelu_new: geluTanh,
  gelu_pytorch_tanh: geluTanh,
  gelu_fast: geluTanh,
  gelu_accurate: geluTanh,
  gelu_10: (x: Tensor) => tidy(() => clipByValue(gelu(x), -10, 10)),
  quick_gelu: (x: Tensor) => tidy(() => mul(x, sigmoid(mul(x, 1.702)))),
  laplace: (x: Tensor) => tidy(() => mul(add(erf(mul(add(x, -0.707107), 1 / (0.282095 * Math.SQRT2))), 1), 0.5)),
  relu,
  relu2: (x: Tensor) => tidy(() => square(relu(x))),
  relu6,
  leaky_relu: (x: Tensor) => leakyRelu(x, 0.01),
  silu: (x: Tensor) => tidy(() => mul(x, sigmoid(x))),
  swish: (x: Tensor) => tidy(() => mul(x, sigmoid(x))),
  mish: (x: Tensor) => tidy(() => mul(x, tanh(softplus(x)))),
  tanh,
  sigmoid,
  linear: identity,
});

/**
 * The activation a config names (`'gelu'`, `'gelu_new'`, `'relu'`, `'silu'`, ...) or a function
 * passed through; an unknown name is an error that lists the known ones.
 *
 * @example
 * const act = activationByName(config.hidden_act); // 'gelu' -> exact (erf) GELU
 * act(x); // [B, T, I]
 */
export function activationByName(name: string | ActivationFunction, caller = 'activationByName'): ActivationFunction {
  if (typeof name === 'function') return name;
  const found = typeof name === 'string' && Object.hasOwn(ACTIVATIONS, name) ? ACTIVATIONS[name] : undefined;
  if (found === undefined) {
    throw new InvalidArgumentError({ caller, argument: 'activation', expected: `one of ${Object.keys(ACTIVATIONS).join(', ')}, or a function`, received: describeValue(name) });
  }
  return found;
}
