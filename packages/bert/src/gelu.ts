import { add, erf, mul, tidy, type Tensor } from '@tensorflow/tfjs-core';

/**
 * Exact GELU, `0.5 · x · (1 + erf(x / √2))`, as BERT's `hidden_act: "gelu"`. Every backend attnkit
 * supports has an `Erf` kernel (the conformance suite checks it against float64: ≤ 4.6e-7).
 *
 * @example
 * gelu(tf.tensor([-1, 0, 1])); // [-0.1587, 0, 0.8413]
 */
export function gelu(x: Tensor): Tensor {
  return tidy(() => mul(mul(x, 0.5), add(erf(mul(x, Math.SQRT1_2)), 1)));
}
