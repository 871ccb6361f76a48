import type { Tensor } from '@tensorflow/tfjs-core';

/**
 * One kernel-level check: an output computed on the active backend and the same output computed
 * in float64 from bit-identical inputs.
 */
export interface ConformanceCase {
  /** Human-readable, with shapes: `'matMul transposeB [2,3,4,5]x[2,3,6,5]'`. */
  readonly name: string;
  /** tfjs kernels the case needs; a backend without one reports the case as a kernel gap. */
  readonly kernels: readonly string[];
  /** Max abs error allowed against float64, by the backend's float precision in bits. */
  readonly tolerance: { readonly 32: number; readonly 16: number };
  /** Builds the output on the active backend (runs inside `tf.tidy`). */
  compute(): Tensor;
  /** The same output in float64, flattened row-major. */
  reference(): Float64Array;
  /**
   * Why the case cannot run in this JavaScript engine (a WebAssembly feature it lacks, say), or
   * `undefined` where it can. Left out: always runs. A reason makes the case `unavailable`.
   */
  available?(): string | undefined;
}
