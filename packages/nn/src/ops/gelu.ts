import { add, engine, erf, mul, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { GELU_KERNEL, kernelRoute } from '@attnkit/kernels';
import { checkTensor } from '@attnkit/errors';

/**
 * Exact GELU, `0.5 · x · (1 + erf(x / √2))`, as BERT's `hidden_act: "gelu"`; `x [...]` → same shape.
 * On wasm it is one fused SIMD kernel (`GELU_KERNEL` from `@attnkit/kernels`, one pass instead of
 * five, as `kernelRoute('gelu')` decides); elsewhere it is composed from tfjs ops (every backend has `Erf`; the conformance suite
 * checks it against float64). Both are within 1e-6 of float64 GELU on [-10, 10], and differentiable.
 *
 * @example
 * gelu(tf.tensor([-1, 0, 1])); // [-0.1587, 0, 0.8413]
 */
export function gelu(x: Tensor): Tensor {
  checkTensor(x, { caller: 'gelu', argument: 'x', dtype: 'float32' });
  if (kernelRoute('gelu', [x]).useKernel) return engine().runKernel(GELU_KERNEL, { x }) as Tensor;
  return tidy(() => mul(mul(x, 0.5), add(erf(mul(x, Math.SQRT1_2)), 1)));
}
