import { engine, tensor, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { checkOptionKeys, checkTensor, describeValue, formatShape, InvalidArgumentError } from '@attnkit/errors';
import { backendValues, residentOnWasm } from './backend-values.js';
import { dataKey } from './data-key.js';
import type { F32KernelName } from './f32-kernel-name.js';
import type { F32GemmKernel } from './f32-gemm-kernel.js';
import { f32Kernel } from './f32-kernels.js';
import { InferenceOnlyError } from './inference-only-error.js';
import { kernelRoute } from './kernel-route.js';
import type { Int8Activation } from './int8-gemm-kernel.js';
import { checkResidualLayerNorm, residualLayerNormValues, type ResidualLayerNormOption } from './residual-layer-norm-option.js';

/** Options of {@link f32MatMul}. */
export interface F32MatMulOptions {
  /** Force one kernel (tests, benchmarks): `'relaxed-simd'` or `'simd'`. Default: the fastest this engine runs (`f32Kernels().preferred`). */
  readonly kernel?: F32KernelName;
  /** Applied to the output inside the kernel, after the bias: `'gelu'`, exact (erf) GELU, the numbers of `geluF32` of `@attnkit/backends` and the wasm backend's GELU kernel. */
  readonly activation?: Int8Activation;
  /** Then, per output row, `LayerNorm(row + residual row) · gamma + beta`, inside the kernel, threaded by rows: the numbers of tfjs' add followed by the wasm backend's LayerNorm kernel, bit for bit. */
  readonly residualLayerNorm?: ResidualLayerNormOption;
}

const ACTIVATION_NAMES: readonly Int8Activation[] = ['gelu'];

/**
 * A float32 matrix product on attnkit's WebAssembly kernels: `y = x · weightᵀ + bias` with the
 * weight in PyTorch's Linear layout `[out, in]`, and optionally GELU and a residual LayerNorm
 * fused into the same call. Each output starts from its bias and accumulates over K in order, as
 * tfjs-wasm's matMul (XNNPACK) does: the `'simd'` kernel equals tfjs-wasm's
 * `fused.matMul({ a: x, b: weight, transposeB: true, bias })` bit for bit; `'relaxed-simd'` uses a
 * multiply-add per step (fused on CPUs with FMA), within a rounding per step of it and faster.
 * Split over the kernel threads (`kernelThreads`) by output columns.
 *
 * Runs on the CPU whatever the backend: on tfjs-wasm the operands are read from its heap and the
 * result uploaded (a copy each way); on cpu a `dataSync()`; on webgl/webgpu a blocking GPU
 * read-back (correct, but keep tfjs `matMul` there). Inference only: no gradient is recorded.
 *
 * Shapes: `x [..., K]`, `weight [M, K]`, `bias [M]` float32 → `[..., M]` float32.
 *
 * @example
 * const y = f32MatMul(x, weight, bias);                         // x [B, T, 384], weight [1536, 384] -> [B, T, 1536]
 * f32MatMul(x, weight, bias, { activation: 'gelu' });            // GELU(x · weightᵀ + bias), one pass
 * f32MatMul(x, weight, bias, { residualLayerNorm: { residual, gamma, beta, epsilon: 1e-12 } }); // LayerNorm(x · weightᵀ + bias + residual)
 */
export function f32MatMul(x: Tensor, weight: Tensor, bias?: Tensor, options: F32MatMulOptions = {}): Tensor {
  const caller = 'f32MatMul';
  if (engine().isTapeOn()) throw new InferenceOnlyError({ caller, hint: 'The kernels record no gradient: use tfjs matMul (nn\'s linear does when gradients are recorded).' });
  checkTensor(x, { caller, argument: 'x', dtype: 'float32', shape: '[..., K]' });
  checkTensor(weight, { caller, argument: 'weight', dtype: 'float32', rank: 2, shape: '[M, K]' });
  const [outFeatures, inFeatures] = weight.shape as [number, number];
  if (x.rank === 0 || x.shape[x.rank - 1] !== inFeatures) {
    throw new InvalidArgumentError({ caller, argument: 'x', expected: `a float32 tensor [..., K] with K = ${inFeatures} (weight is [M, K] = ${formatShape(weight.shape)})`, received: `rank ${x.rank} ${formatShape(x.shape)}` });
  }
  if (bias !== undefined) {
    checkTensor(bias, { caller, argument: 'bias', dtype: 'float32', rank: 1, shape: '[M]' });
    if (bias.shape[0] !== outFeatures) throw new InvalidArgumentError({ caller, argument: 'bias', expected: `a float32 tensor [M] with M = ${outFeatures} (weight is [M, K] = ${formatShape(weight.shape)})`, received: formatShape(bias.shape) });
  }
  const { kernel: kernelName, activation, residualLayerNorm } = checkOptionKeys(options, ['kernel', 'activation', 'residualLayerNorm'], caller);
  if (activation !== undefined && !ACTIVATION_NAMES.includes(activation)) {
    throw new InvalidArgumentError({ caller, argument: 'activation', expected: `one of ${ACTIVATION_NAMES.map((a) => `'${a}'`).join(', ')} (or absent)`, received: describeValue(activation) });
  }
  const kernel = f32Kernel(kernelName, caller);
  if (residualLayerNorm !== undefined) checkResidualLayerNorm(residualLayerNorm, [...x.shape.slice(0, -1), outFeatures], caller);
  return multiply(kernel, x, weight, bias, activation, residualLayerNorm, caller);
}

/**
 * {@link f32MatMul} without its checks, for callers that made them once at their own boundary
 * (`Linear.forward` and `linear` of `@attnkit/nn`, on the route `kernelRoute('f32MatMul')` gives):
 * the tensors are float32 with the shapes f32MatMul requires, `options` holds only its keys with
 * valid values, and no gradient is being recorded. Otherwise its numbers and errors are undefined.
 *
 * Shapes: `x [..., K]`, `weight [M, K]`, `bias [M]` float32 → `[..., M]` float32.
 *
 * @example
 * if (kernelRoute('f32MatMul', [x]).useKernel) return f32MatMulUnchecked(x, weight, bias, { activation: 'gelu' }); // checked above
 */
export function f32MatMulUnchecked(x: Tensor, weight: Tensor, bias?: Tensor, options: F32MatMulOptions = {}): Tensor {
  return multiply(f32Kernel(options.kernel, 'f32MatMul'), x, weight, bias, options.activation, options.residualLayerNorm, 'f32MatMul');
}

function multiply(kernel: F32GemmKernel, x: Tensor, weight: Tensor, bias: Tensor | undefined, activation: Int8Activation | undefined, residualLayerNorm: ResidualLayerNormOption | undefined, caller: string): Tensor {
  const [outFeatures, inFeatures] = weight.shape as [number, number];
  const rows = x.shape.slice(0, -1).reduce((n, d) => n * d, 1); // N, the product of the leading dimensions
  const outShape = [...x.shape.slice(0, -1), outFeatures]; // [..., K] -> [..., M]
  if (rows * outFeatures === 0) return zeros(outShape); // nothing to compute (K = 0 is computed: the bias, activated)
  residentOnWasm([x, weight, bias, residualLayerNorm?.residual, residualLayerNorm?.gamma, residualLayerNorm?.beta]); // before any view: a move may grow the heap
  const read = (t: Tensor) => backendValues(t, Float32Array); // on tfjs-wasm a view of its heap, copied at once into the kernel's memory
  const out = kernel.multiply({
    read: () => read(x),
    weight: () => read(weight), // read only when its packed panels are not kept from an earlier call
    weightKey: { key: dataKey(weight), owner: weight.dataId as object }, // a Linear's weight is packed once
    bias: bias === undefined ? undefined : read(bias),
    rows,
    cols: outFeatures,
    depth: inFeatures,
    activation,
    residualLayerNorm: residualLayerNormValues(residualLayerNorm, read),
    inPlace: kernelRoute('f32MatMul').inPlace,
    caller,
  });
  return tensor(out, outShape, 'float32');
}
