/**
 * A broadcast operand of the fused attention, flat: `values` hold `[B|1, H|1, T|1, S]` (the last
 * axis always S, contiguous) and `strides` the element steps of B, H and T (0 where broadcast).
 */
export interface BroadcastRows<V> {
  readonly values: V;
  readonly strides: readonly [batch: number, heads: number, query: number];
}

/**
 * One fused attention call on flat float32 data, what every kernel ({@link FusedAttentionKernel})
 * computes: `out [B, H, T, Dv] = softmax(query · keyᵀ · scale + bias, mask) · value`.
 *
 * `query [B, H, T, D]`, `key [B, H, S, D]`, `value [B, H, S, Dv]`; `mask` one byte per entry
 * (non-zero = may attend) and `bias` float32, each broadcast to `[B, H, T, S]` by its strides.
 */
export interface FusedAttentionProblem {
  readonly batch: number;
  readonly heads: number;
  readonly queryLength: number;
  readonly keyLength: number;
  readonly headDim: number;
  readonly valueDim: number;
  /** Multiplies the query before the product (as `scaledDotProductScorer`: `√(1 / D)`, rounded to float32). */
  readonly scale: number;
  readonly query: Float32Array;
  readonly key: Float32Array;
  readonly value: Float32Array;
  readonly mask?: BroadcastRows<Uint8Array> | undefined;
  readonly bias?: BroadcastRows<Float32Array> | undefined;
}

/** A fused attention implementation: the wasm SIMD module or the plain JavaScript reference. */
export interface FusedAttentionKernel {
  readonly name: FusedAttentionKernelName;
  /** `[B, H, T, Dv]`, a new array the caller owns. */
  run(problem: FusedAttentionProblem): Float32Array;
}

/** The fused attention kernels, fastest first: wasm SIMD128 and plain JavaScript. */
export const FUSED_ATTENTION_KERNEL_NAMES = ['simd', 'js'] as const;

/** One of {@link FUSED_ATTENTION_KERNEL_NAMES}. */
export type FusedAttentionKernelName = (typeof FUSED_ATTENTION_KERNEL_NAMES)[number];
