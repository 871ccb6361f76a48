/**
 * A broadcast operand of the fused attention, flat: `values` hold `[B|1, H|1, T|1, S]` (the last
 * axis always S, contiguous) and `strides` the element steps of B, H and T (0 where broadcast).
 */
export interface BroadcastRows<V> {
  readonly values: V;
  readonly strides: readonly [batch: number, heads: number, query: number];
}

/**
 * Where an operand of a fused attention lies in its flat array: the element `offset` of its first
 * value and the element strides of its batch, head and row axes (T for the query and the output, S
 * for the key and the value); its last axis (D or Dv) is contiguous. `[B, H, T, D]` contiguous is
 * `{ offset: 0, batch: H·T·D, heads: T·D, rows: D }`; the rows of tokens `[B, T, H, D]` are
 * `{ offset: 0, batch: T·H·D, heads: D, rows: H·D }`.
 */
export interface OperandLayout {
  readonly offset: number;
  readonly batch: number;
  readonly heads: number;
  readonly rows: number;
}

/** The layouts of a fused attention's operands (see {@link OperandLayout}). */
export interface FusedAttentionLayout {
  readonly query: OperandLayout;
  readonly key: OperandLayout;
  readonly value: OperandLayout;
  /** The output's; it covers `B·H·T·Dv` values from offset 0. */
  readonly out: OperandLayout;
}

/** `[B, H, N, W]` contiguous: what a problem without a layout holds. */
export function headMajorLayout(heads: number, rows: number, width: number): OperandLayout {
  return { offset: 0, batch: heads * rows * width, heads: rows * width, rows: width };
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
  /**
   * Where query, key, value and output lie in their arrays (default: `[B, H, ·, ·]` contiguous, as
   * above). With it, `query`, `key` and `value` may be one array (a fused projection `[B, T, 3, H, D]`).
   */
  readonly layout?: FusedAttentionLayout | undefined;
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
