import { add, engine, getBackend, getKernel, moments, mul, rsqrt, sub, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { LAYER_NORM_KERNEL } from '@attnkit/backends';

/**
 * Layer normalisation over the last axis, as `nn.LayerNorm` (biased variance, `eps` inside the
 * square root). `x [..., E]`, `weight [E]`, `bias [E]` → `[..., E]`; without `weight` and `bias`
 * (PyTorch `elementwise_affine=False`) it only normalises. On wasm it is one fused SIMD
 * kernel (`LAYER_NORM_KERNEL` from `@attnkit/backends`) instead of nine tfjs ops; elsewhere, and for
 * weights that only broadcast to `[E]`, it is composed from tfjs ops. Both are differentiable.
 *
 * @example
 * layerNorm(x, gamma, beta, 1e-12);
 */
export function layerNorm(x: Tensor, weight: Tensor | undefined, bias: Tensor | undefined, eps: number): Tensor {
  const width = x.shape.at(-1);
  const fused =
    weight !== undefined && bias !== undefined &&
    [x, weight, bias].every((t) => t.dtype === 'float32') &&
    [weight, bias].every((t) => t.rank === 1 && t.shape[0] === width) &&
    getKernel(LAYER_NORM_KERNEL, getBackend()) !== undefined;
  if (fused) return engine().runKernel(LAYER_NORM_KERNEL, { x, gamma: weight, beta: bias }, { epsilon: eps }) as Tensor;
  return tidy(() => {
    const { mean, variance } = moments(x, -1, true);
    const normalised = mul(sub(x, mean), rsqrt(add(variance, eps)));
    const scaled = weight === undefined ? normalised : mul(normalised, weight);
    return bias === undefined ? scaled : add(scaled, bias);
  });
}
