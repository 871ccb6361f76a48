import { add, moments, mul, rsqrt, sub, tidy, type Tensor } from '@tensorflow/tfjs-core';

/**
 * Layer normalisation over the last axis, as `nn.LayerNorm` (biased variance, `eps` inside the
 * square root). `x [..., E]`, `weight [E]`, `bias [E]` → `[..., E]`.
 *
 * @example
 * layerNorm(x, gamma, beta, 1e-12);
 */
export function layerNorm(x: Tensor, weight: Tensor, bias: Tensor, eps: number): Tensor {
  return tidy(() => {
    const { mean, variance } = moments(x, -1, true);
    return add(mul(mul(sub(x, mean), rsqrt(add(variance, eps))), weight), bias);
  });
}
