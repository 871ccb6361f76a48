import { engine, tensor, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { checkOptionKeys, checkTensor, describeValue, formatShape, InvalidArgumentError } from '@attnkit/errors';
import { checkInt8Weight, type Int8Weight } from './int8-weight.js';
import { int8WeightArrays, isFrozenInt8Weight } from './frozen-int8-weight.js';
import type { Int8KernelName } from './int8-kernel-name.js';
import type { Int8Activation } from './int8-gemm-kernel.js';
import { int8Kernel } from './int8-kernels.js';
import { InferenceOnlyError } from './inference-only-error.js';
import { kernelRoute } from './kernel-route.js';
import { WasmInt8Gemm } from './wasm-int8-gemm.js';
import { backendValues, residentOnWasm } from './backend-values.js';
import { dataKey, objectKey } from './data-key.js';
import { checkResidualLayerNorm, residualLayerNormValues, type ResidualLayerNormOption } from './residual-layer-norm-option.js';
import { checkInputNorm, inputNormValues, type InputNormOption } from './input-norm-option.js';
import { inputNormF32 } from './input-norm-f32.js';
import { checkResidual } from './check-residual.js';

/** The longest K whose int32 sums cannot overflow at ±127 · ±127: ⌊(2³¹ − 1) / 127²⌋. */
export const MAX_INT8_DEPTH = 133_144;

/** Options of {@link int8MatMul}. */
export interface Int8MatMulOptions {
  /**
   * Force one kernel (tests, benchmarks): `'relaxed-simd'`, `'simd'` or `'js'`. Default: the
   * fastest this engine runs (`int8Kernels().preferred`). Note that `'relaxed-simd'` quantizes
   * activations to 7 bits ([-63, 63]), the others to 8 bits ([-127, 127]).
   */
  readonly kernel?: Int8KernelName;
  /**
   * Applied to the float output inside the kernel, after the bias: `'gelu'`, exact (erf) GELU
   * (Hugging Face's `'gelu'`), the same float32 numbers as `geluF32` and
   * the wasm backend's GELU kernel. One pass over the output instead of two.
   */
  readonly activation?: Int8Activation;
  /**
   * Then, per output row: `LayerNorm(row + residual row) · gamma + beta` (BERT's `LN(dense(x) + x)`
   * after an attention or feed-forward block), inside the kernel, threaded by rows: the numbers of
   * tfjs' add followed by the wasm backend's LayerNorm kernel, bit for bit (`residualLayerNormF32`).
   * `residual [..., M]` (the output's shape), `gamma`, `beta` `[M]` float32, `epsilon` finite ≥ 0.
   */
  readonly residualLayerNorm?: ResidualLayerNormOption;
  /**
   * Before quantizing, each row of `x` normalized inside the kernel: `{ kind: 'rmsNorm', weight,
   * epsilon }` (transformers' LlamaRMSNorm) or `{ kind: 'layerNorm', weight, bias, epsilon }`,
   * `weight`, `bias` `[K]` — a pre-norm decoder's `input_layernorm` and the projection it feeds
   * in one call. On wasm the numbers of the backend's RMSNorm / LayerNorm kernel followed by the
   * product, bit for bit (elsewhere `inputNormF32`'s float32 mirror of them).
   */
  readonly inputNorm?: InputNormOption;
  /**
   * `[..., M]` (the output's shape) float32, added to the output last: `residual + x · W (+ bias)`,
   * bit for bit tfjs' `add` of the two (a decoder's `hidden + o_proj(...)`). Not with `residualLayerNorm`.
   */
  readonly residual?: Tensor;
}

const ACTIVATION_NAMES: readonly Int8Activation[] = ['gelu'];

/**
 * An int8 matrix product with float32 in and out: `y ≈ x · W + bias` for the float weight
 * `W [K, M]` that `weight` quantizes. Each row of `x` is quantized on the fly
 * (symmetric, per row: 8-bit, or 7-bit on the `'relaxed-simd'` kernel), the int8 kernel
 * accumulates exactly in int32, and the result is dequantized with rowScale · colScale and the
 * bias added in float32 (then the activation, if any), inside the kernel.
 *
 * Runs on the CPU whatever the backend: `x` is read with `dataSync()` and the result uploaded as
 * a new tensor. On cpu and wasm that is a copy; on webgl/webgpu it is a blocking GPU read-back
 * (correct, but a stall per call: keep float `matMul` there, where int8 saves no arithmetic).
 * Inference only: no gradient is recorded. Non-finite values in `x` are refused (typed error); the bias is added as is.
 *
 * Shapes: `x [..., K]` float32, `weight` `Int8Weight` (`[M, K]` int8 + `[M]` scales),
 * `bias [M]` float32 → `[..., M]` float32.
 *
 * @example
 * const weight = quantizeWeightPerChannel(w);        // w: [384, 1536]
 * const y = int8MatMul(x, weight, bias);              // x: [B, T, 384] -> y: [B, T, 1536]
 * int8MatMul(x, weight, bias, { kernel: 'js' });      // the same numbers as 'simd', in plain JS
 * int8MatMul(x, weight, bias, { activation: 'gelu' }); // GELU(x · W + bias), fused
 */
export function int8MatMul(x: Tensor, weight: Int8Weight, bias?: Tensor, options: Int8MatMulOptions = {}): Tensor {
  const caller = 'int8MatMul';
  if (engine().isTapeOn()) throw new InferenceOnlyError({ caller, hint: 'int8 weights have no gradient: train the float model (load it without quantize: \'int8\').' }); // a gradient would stop here, silently
  checkTensor(x, { caller, argument: 'x', dtype: 'float32', shape: '[..., K]' });
  const { inFeatures, outFeatures } = isFrozenInt8Weight(weight) ? weight : checkInt8Weight(weight, caller, 'weight'); // a frozen weight was checked when frozen
  const { values, scales, frozen } = int8WeightArrays(weight); // a frozen weight's own arrays, not copies
  const weightShape = () => `[M, K] = ${formatShape([outFeatures, inFeatures])}`; // only an error's text
  if (x.rank === 0 || x.shape[x.rank - 1] !== inFeatures) {
    throw new InvalidArgumentError({ caller, argument: 'x', expected: `a float32 tensor [..., K] with K = ${inFeatures} (weight is ${weightShape()})`, received: `rank ${x.rank} ${formatShape(x.shape)}` });
  }
  if (inFeatures > MAX_INT8_DEPTH) {
    throw new InvalidArgumentError({ caller, argument: 'weight', expected: `K ≤ ${MAX_INT8_DEPTH} (int32 sums of ±127 · ±127 products overflow beyond)`, received: `K = ${inFeatures}`, hint: 'Split K and add the partial products in float.' });
  }
  if (bias !== undefined) {
    checkTensor(bias, { caller, argument: 'bias', dtype: 'float32', rank: 1, shape: '[M]' });
    if (bias.shape[0] !== outFeatures) {
      throw new InvalidArgumentError({ caller, argument: 'bias', expected: `a float32 tensor [M] with M = ${outFeatures} (weight is ${weightShape()})`, received: formatShape(bias.shape) });
    }
  }
  const { kernel: kernelName, activation, residualLayerNorm, inputNorm, residual } = checkOptionKeys(options, ['kernel', 'activation', 'residualLayerNorm', 'inputNorm', 'residual'], caller);
  if (activation !== undefined && !ACTIVATION_NAMES.includes(activation)) {
    throw new InvalidArgumentError({ caller, argument: 'activation', expected: `one of ${ACTIVATION_NAMES.map((a) => `'${a}'`).join(', ')} (or absent)`, received: describeValue(activation) });
  }
  const kernel = int8Kernel(kernelName, caller);
  const rows = x.shape.slice(0, -1).reduce((n, d) => n * d, 1); // N, the product of the leading dimensions
  const outShape = [...x.shape.slice(0, -1), outFeatures]; // [..., K] -> [..., M]
  if (residualLayerNorm !== undefined) checkResidualLayerNorm(residualLayerNorm, outShape, caller);
  if (inputNorm !== undefined) checkInputNorm(inputNorm, inFeatures, caller);
  if (residual !== undefined) {
    if (residualLayerNorm !== undefined) throw new InvalidArgumentError({ caller, argument: 'residual', expected: 'absent with residualLayerNorm (which adds its own residual)', received: 'both' });
    checkResidual(residual, outShape, caller);
  }
  const shape = { rows, cols: outFeatures, depth: inFeatures };
  if (rows * outFeatures === 0) return zeros(outShape); // nothing to compute (and nothing read)
  if (kernel instanceof WasmInt8Gemm) residentOnWasm([x, bias, residualLayerNorm?.residual, residualLayerNorm?.gamma, residualLayerNorm?.beta, inputNorm?.weight, inputNorm?.bias, residual]); // before any view: a move may grow the heap
  const biasValues = bias === undefined ? undefined : kernel instanceof WasmInt8Gemm ? backendValues(bias, Float32Array) : (bias.dataSync() as Float32Array); // a view of tfjs-wasm's heap, copied into the kernel's memory before tfjs allocates again
  const read = () => backendValues(x, Float32Array); // on tfjs-wasm a view of its heap, copied once into the kernel's memory
  const { inPlace } = kernelRoute('int8MatMul'); // the kernel's output view can go to tfjs as is (wasm), or is copied
  if (kernel instanceof WasmInt8Gemm) {
    const view = (t: Tensor) => backendValues(t, Float32Array);
    const out = kernel.quantizedMultiplyReusing({ key: inputNorm === undefined ? dataKey(x) : undefined, read, weight: values, weightKey: { key: objectKey(values), owner: values, frozen }, shape, colScales: scales, bias: biasValues, caller, activation, inPlace, residualLayerNorm: residualLayerNormValues(residualLayerNorm, view), inputNorm: inputNormValues(inputNorm, view), residual: residual === undefined ? undefined : view(residual) }); // the same x as the last product (q, k, v of one input): quantized once
    return tensor(out, outShape, 'float32');
  }
  const read32 = (t: Tensor) => t.dataSync() as Float32Array;
  const norm = inputNormValues(inputNorm, read32);
  const given = read32(x);
  const bad = norm === undefined ? -1 : given.findIndex((v) => !Number.isFinite(v)); // normalized, such a row is all NaN: name the value given (as the wasm kernels do)
  if (bad >= 0) throw new InvalidArgumentError({ caller, argument: 'x', expected: 'finite values only (int8 quantization scales each row by its largest magnitude)', received: `${given[bad]} at flat index ${bad}`, hint: 'Replace or mask the non-finite values first.' });
  const xs = norm === undefined ? given : inputNormF32(Float32Array.from(given), norm, rows, inFeatures); // a normalized copy
  const out = kernel.quantizedMultiply(xs, values, shape, scales, biasValues, caller, activation, residualLayerNormValues(residualLayerNorm, read32)); // [N, K] -> int8 [N, K] + [N] scales -> [N, M]
  if (residual !== undefined) {
    const r = read32(residual);
    for (let i = 0; i < out.length; i++) out[i] = Math.fround((out[i] as number) + (r[i] as number));
  }
  return tensor(out, outShape, 'float32');
}
