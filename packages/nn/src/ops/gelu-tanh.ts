import { add, engine, mul, tanh, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { GELU_TANH_KERNEL, kernelRoute } from '@attnkit/kernels';
import { checkTensor } from '@attnkit/errors';

const SQRT_2_OVER_PI = Math.sqrt(2 / Math.PI);

/**
 * The tanh approximation of GELU, `0.5 · x · (1 + tanh(√(2/π) · (x + 0.044715 · x³)))`: PyTorch's
 * `gelu(approximate='tanh')` and Hugging Face's `gelu_new` / `gelu_pytorch_tanh` / `gelu_fast`.
 * `x [...]` → same shape. On wasm outside gradient recording it is one SIMD kernel
 * (`GELU_TANH_KERNEL` from `@attnkit/kernels`, one pass instead of eight, as `kernelRoute('geluTanh')`
 * decides); elsewhere, and while recording gradients, it is composed from tfjs ops. Both are within
 * 1e-6 of the float64 formula on [-8, 8].
 *
 * @example
 * geluTanh(tf.tensor([-1, 0, 1])); // [-0.1588, 0, 0.8412]
 */
export function geluTanh(x: Tensor): Tensor {
  checkTensor(x, { caller: 'geluTanh', argument: 'x', dtype: 'float32' });
  if (kernelRoute('geluTanh', [x]).useKernel) return engine().runKernel(GELU_TANH_KERNEL, { x }) as Tensor;
  return tidy(() => mul(mul(x, 0.5), add(tanh(mul(add(x, mul(mul(mul(x, x), x), 0.044715)), SQRT_2_OVER_PI)), 1)));
}
