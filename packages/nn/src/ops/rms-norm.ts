import { add, engine, mean, mul, rsqrt, square, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { RMS_NORM_KERNEL, kernelRoute } from '@attnkit/kernels';
import { InvalidArgumentError, checkTensor, describeValue, formatShape } from '@attnkit/errors';

/**
 * Root-mean-square normalisation over the last axis, as Hugging Face's `LlamaRMSNorm` (T5's
 * LayerNorm): `weight * x / sqrt(mean(x²) + eps)` — no mean subtracted, no bias, `eps` inside the
 * square root. In float32, as transformers computes it whatever the model's dtype. Without `weight`
 * it only normalises. Differentiable: composed from tfjs ops on every backend, and on wasm outside gradient recording one kernel (`RMS_NORM_KERNEL` of `@attnkit/kernels`).
 *
 * `x [..., E]`, `weight [E]` → `[..., E]`.
 *
 * @example
 * rmsNorm(x, weight, 1e-6); // [B, T, E]
 */
export function rmsNorm(x: Tensor, weight: Tensor | undefined, eps: number): Tensor {
  const caller = 'rmsNorm';
  checkTensor(x, { caller, argument: 'x', dtype: 'float32', shape: '[..., E]' });
  if (x.rank === 0) throw new InvalidArgumentError({ caller, argument: 'x', expected: 'a float32 tensor [..., E] of rank ≥ 1', received: 'a scalar' });
  if (weight !== undefined) {
    checkTensor(weight, { caller, argument: 'weight', dtype: 'float32', rank: 1, shape: '[E]' });
    if (weight.shape[0] !== x.shape[x.rank - 1]) {
      throw new InvalidArgumentError({ caller, argument: 'weight', expected: `[E] with E = ${x.shape[x.rank - 1]} (the last axis of 'x')`, received: formatShape(weight.shape) });
    }
  }
  if (typeof eps !== 'number' || !(eps > 0) || !Number.isFinite(eps)) throw new InvalidArgumentError({ caller, argument: 'eps', expected: 'a finite number > 0', received: describeValue(eps) });
  if (weight !== undefined && kernelRoute('rmsNorm', [x, weight]).useKernel) return engine().runKernel(RMS_NORM_KERNEL, { x, weight }, { epsilon: eps }) as Tensor; // one pass (wasm, outside gradient recording)
  return tidy(() => {
    const variance = mean(square(x), -1, true); // [..., E] -> [..., 1]
    const normalised = mul(x, rsqrt(add(variance, eps)));
    return weight === undefined ? normalised : mul(weight, normalised);
  });
}
