import type { Int8KernelName } from './int8-kernel-name.js';
import type { ResidualLayerNormValues } from './residual-layer-norm-f32.js';

/** An activation applied to an int8 product's float output inside the kernel: `'gelu'` is exact (erf) GELU, `geluF32` of `@attnkit/backends` bit for bit. */
export type Int8Activation = 'gelu';

/** The sizes of `A·Bᵀ`: A `[rows, depth]` (N, K), B `[cols, depth]` (M, K), the result `[rows, cols]` (N, M). */
export interface Int8GemmShape {
  readonly rows: number;
  readonly cols: number;
  readonly depth: number;
}

/**
 * One int8 GEMM implementation: `C = A·Bᵀ` with A int8 `[N, K]` (activations, row-major) and B
 * int8 `[M, K]` (weights, rows contiguous in K), exact int32 accumulation.
 *
 * @example
 * const acc = kernel.accumulate(a, b, { rows: 2, cols: 3, depth: 4 }); // Int32Array [2, 3]
 */
export interface Int8GemmKernel {
  readonly name: Int8KernelName;
  /**
   * The largest activation level the kernel is exact for: 127 (A in [-127, 127]) or 63 for
   * `'relaxed-simd'`, whose 7-bit operand holds A + 64 (A is clamped to [-64, 63]).
   */
  readonly activationLevels: 127 | 63;
  /** The exact int32 accumulators `A·Bᵀ`: `[N, M]`. */
  accumulate(a: Int8Array, b: Int8Array, shape: Int8GemmShape): Int32Array;
  /**
   * `out[i, j] = f32(acc[i, j]) · rowScales[i] · colScales[j] + bias[j]`, in float32, left to
   * right (see `dequantizeAccumulators`), then `activation` if given: `[N, M]`.
   */
  multiply(a: Int8Array, b: Int8Array, shape: Int8GemmShape, rowScales: Float32Array, colScales: Float32Array, bias?: Float32Array, activation?: Int8Activation): Float32Array;
  /**
   * The whole int8 product from float activations: quantizes the rows of `x [N, K]` to
   * `activationLevels` (as `quantizeRows`, bit for bit), then {@link multiply}: `[N, M]`. Throws
   * `InvalidArgumentError` for `caller`'s argument `'x'` on a NaN or ±Infinity. With
   * `residualLayerNorm`, each output row then becomes `LayerNorm(row + residual row) · gamma + beta`
   * (see `residualLayerNormF32`, the same numbers).
   */
  quantizedMultiply(x: Float32Array, b: Int8Array, shape: Int8GemmShape, colScales: Float32Array, bias: Float32Array | undefined, caller: string, activation?: Int8Activation, residualLayerNorm?: ResidualLayerNormValues): Float32Array;
}
