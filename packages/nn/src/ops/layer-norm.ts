import { add, engine, moments, mul, rsqrt, sub, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { LAYER_NORM_KERNEL, kernelRoute } from '@attnkit/kernels';
import { InvalidArgumentError, checkTensor, describeValue } from '@attnkit/errors';

/**
 * Layer normalisation over the last axis, as `nn.LayerNorm` (biased variance, `eps` inside the
 * square root). `x [..., E]`, `weight [E]`, `bias [E]` → `[..., E]`; without `weight` and `bias`
 * (PyTorch `elementwise_affine=False`) it only normalises. On wasm it is one fused SIMD
 * kernel (`LAYER_NORM_KERNEL` from `@attnkit/kernels`, as `kernelRoute('layerNorm')` decides) instead of nine tfjs ops; elsewhere, and for
 * weights that only broadcast to `[E]`, it is composed from tfjs ops. Both are differentiable.
 *
 * @example
 * layerNorm(x, gamma, beta, 1e-12);
 */
export function layerNorm(x: Tensor, weight: Tensor | undefined, bias: Tensor | undefined, eps: number): Tensor {
  checkTensor(x, { caller: 'layerNorm', argument: 'x', dtype: 'float32', shape: '[..., E]' });
  if (x.rank === 0) throw new InvalidArgumentError({ caller: 'layerNorm', argument: 'x', expected: 'a float32 tensor [..., E] of rank ≥ 1 (normalised over its last axis)', received: 'a scalar (rank 0)' });
  if (weight !== undefined) checkTensor(weight, { caller: 'layerNorm', argument: 'weight', dtype: 'float32', rank: 1, shape: '[E]' });
  if (bias !== undefined) checkTensor(bias, { caller: 'layerNorm', argument: 'bias', dtype: 'float32', rank: 1, shape: '[E]' });
  if (typeof eps !== 'number' || !(eps > 0)) throw new InvalidArgumentError({ caller: 'layerNorm', argument: 'eps', expected: 'a positive number', received: describeValue(eps) });
  const width = x.shape.at(-1);
  const fused =
    weight !== undefined && bias !== undefined &&
    [weight, bias].every((t) => t.rank === 1 && t.shape[0] === width) && // the kernel's form: gamma and beta of exactly [E]
    kernelRoute('layerNorm', [x, weight, bias]).useKernel;
  if (fused) return engine().runKernel(LAYER_NORM_KERNEL, { x, gamma: weight, beta: bias }, { epsilon: eps }) as Tensor;
  return tidy(() => {
    const { mean, variance } = moments(x, -1, true);
    const normalised = mul(sub(x, mean), rsqrt(add(variance, eps)));
    const scaled = weight === undefined ? normalised : mul(normalised, weight);
    return bias === undefined ? scaled : add(scaled, bias);
  });
}
