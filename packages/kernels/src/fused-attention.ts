import { engine, slice, tensor, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { checkInteger, checkOptionKeys, checkTensor, describeValue, formatShape, InvalidArgumentError } from '@attnkit/errors';
import type { BroadcastRows, FusedAttentionKernelName, FusedAttentionProblem } from './fused-attention-problem.js';
import { backendValues, residentOnWasm } from './backend-values.js';
import { fusedAttentionKernel } from './fused-attention-kernels.js';
import { InferenceOnlyError } from './inference-only-error.js';
import { kernelRoute } from './kernel-route.js';
import { ATTENTION_ROWS_KERNEL, ATTENTION_ROWS_MAX_QUERIES, ATTENTION_ROWS_MAX_WORK } from './tfjs-fills/wasm-attention-rows-fill.js';
import { WasmFusedAttention } from './wasm-fused-attention.js';

/** Options of {@link fusedAttention}. */
export interface FusedAttentionOptions {
  /** Bool `[B|1, H|1, T|1, S|1]`, `true` = may attend (rank 4: make other masks rank 4 first, e.g. with `validateMask` from `@attnkit/masks`). */
  readonly mask?: Tensor | undefined;
  /** Float32 `[B|1, H|1, T|1, S|1]` added to the scores before the mask and softmax (relative positions, ALiBi). */
  readonly bias?: Tensor | undefined;
  /** Multiplies the query before the product. Default `√(1 / D)`, as `scaledDotProductScorer`. */
  readonly scale?: number;
  /** Force a kernel (tests, benchmarks): `'simd'` (wasm SIMD128) or `'js'` (the plain reference). Default: the fastest here. */
  readonly kernel?: FusedAttentionKernelName;
  /** S: attend over only the first S positions of `key` and `value` (`[B, H, C, D]`, C ≥ S: a `KvCache` layer grown ahead of its length); the mask's and bias' last axis is S. Default: all of them. */
  readonly keyLength?: number | undefined;
}

const OPTION_KEYS = ['mask', 'bias', 'scale', 'kernel', 'keyLength'] as const;

/** A mask or bias as flat rows over S with strides for B, H, T (a last axis of 1 is repeated S times). Internal (fusedQkvAttention shares it). */
export function broadcastRows<V extends Uint8Array | Float32Array>(given: Tensor, values: V, target: readonly number[], make: (n: number) => V): BroadcastRows<V> {
  const [b, h, t, s] = given.shape as [number, number, number, number];
  const keys = target[3] as number;
  let rows = values;
  if (s !== keys) { // [.., 1] -> [.., S]
    rows = make(b * h * t * keys);
    for (let r = 0; r < b * h * t; r++) rows.fill(values[r] as never, r * keys, (r + 1) * keys);
  }
  return { values: rows, strides: [b === 1 ? 0 : h * t * keys, h === 1 ? 0 : t * keys, t === 1 ? 0 : keys] };
}

export function checkBroadcast(given: Tensor | undefined, target: readonly number[], caller: string, argument: 'mask' | 'bias'): Tensor | undefined {
  if (given === undefined) return undefined;
  const dtype = argument === 'mask' ? 'bool' : 'float32';
  checkTensor(given, { caller, argument, dtype, rank: 4, shape: '[B|1, H|1, T|1, S|1]' });
  if (given.shape.some((size, i) => size !== 1 && size !== target[i])) {
    throw new InvalidArgumentError({
      caller,
      argument,
      expected: `a rank-4 ${dtype} tensor broadcastable to [B, H, T, S] = ${formatShape(target)} (each dimension 1 or equal)`,
      received: formatShape(given.shape),
      hint: argument === 'mask' ? 'A padding mask is [B, 1, 1, S], a causal one [1, 1, T, S].' : 'A per-head bias is [1, H, T, S].',
    });
  }
  return given;
}

/**
 * Fused attention: `softmax(q · kᵀ · scale + bias, mask) · v` per batch and head, in one wasm SIMD
 * pass that never holds the scores `[B, H, T, S]` — only a few rows of S scores at a time. The
 * softmax is attnkit's masked softmax: blocked keys get exactly zero weight, a query with no
 * allowed key gives zeros (never NaN), a NaN among the allowed scores gives a NaN row. Within
 * 1e-5 of `scaledDotProductAttention`'s output (tested), without its attention weights.
 *
 * Runs on the CPU whatever the backend (`dataSync` in, a new tensor out): meant for the cpu and wasm
 * backends; on webgl/webgpu it is a blocking read-back. Split over the kernel threads
 * (`kernelThreads`) by (batch, head) pairs. On wasm, a call of at most 4 query rows (a decoding
 * step) small enough for one thread runs as `ATTENTION_ROWS_KERNEL` on tfjs-wasm's own memory
 * instead, reading the keys and values in place, with the same numbers bit for bit (not when a
 * `kernel` is asked for by name). Inference only: it has no
 * gradient, and called while tfjs records one it throws `InferenceOnlyError`.
 *
 * `query [B, H, T, D]`, `key [B, H, S, D]`, `value [B, H, S, Dv]` float32 → `[B, H, T, Dv]` float32.
 *
 * @example
 * const out = fusedAttention(q, k, v, { mask: padding });              // padding: bool [B, 1, 1, S]
 * fusedAttention(q, k, v, { bias: relativePositions, scale: 1 });      // bias [1, H, T, S]
 */
export function fusedAttention(query: Tensor, key: Tensor, value: Tensor, options: FusedAttentionOptions = {}): Tensor {
  const caller = 'fusedAttention';
  checkOptionKeys(options, OPTION_KEYS, caller);
  checkTensor(query, { caller, argument: 'query', dtype: 'float32', rank: 4, shape: '[B, H, T, D]' });
  checkTensor(key, { caller, argument: 'key', dtype: 'float32', rank: 4, shape: '[B, H, S, D]' });
  checkTensor(value, { caller, argument: 'value', dtype: 'float32', rank: 4, shape: '[B, H, S, Dv]' });
  const [batch, heads, queryLength, headDim] = query.shape as [number, number, number, number];
  const valueDim = value.shape[3] as number;
  const keyLength = options.keyLength === undefined ? key.shape[2] as number : checkInteger(options.keyLength, { caller, argument: 'keyLength', min: 0, max: key.shape[2] as number });
  if (key.shape[0] !== batch || key.shape[1] !== heads || key.shape[3] !== headDim) {
    throw new InvalidArgumentError({ caller, argument: 'key', expected: `[B, H, S, D] with B, H, D = ${batch}, ${heads}, ${headDim} (from 'query')`, received: formatShape(key.shape) });
  }
  if (value.shape[0] !== batch || value.shape[1] !== heads || value.shape[2] !== key.shape[2]) {
    throw new InvalidArgumentError({ caller, argument: 'value', expected: `[B, H, S, Dv] with B, H, S = ${batch}, ${heads}, ${key.shape[2]} (from 'query' and 'key')`, received: formatShape(value.shape) });
  }
  const target = [batch, heads, queryLength, keyLength];
  const mask = checkBroadcast(options.mask, target, caller, 'mask');
  const bias = checkBroadcast(options.bias, target, caller, 'bias');
  const scale = options.scale === undefined ? (headDim === 0 ? 1 : Math.sqrt(1 / headDim)) : options.scale; // null is no number: refused, as a null mask is
  if (typeof scale !== 'number' || !Number.isFinite(scale)) {
    throw new InvalidArgumentError({ caller, argument: 'scale', expected: 'a finite number', received: typeof scale === 'number' ? String(scale) : describeValue(scale) });
  }
  const kernel = fusedAttentionKernel(options.kernel, caller);
  if (engine().isTapeOn()) {
    throw new InferenceOnlyError({ caller, hint: 'Use scaledDotProductAttention from @attnkit/attention when training.' });
  }
  const outShape = [batch, heads, queryLength, valueDim]; // [B, H, T, Dv]
  if (batch * heads * queryLength * valueDim === 0) return zeros(outShape);
  const work = batch * heads * queryLength * keyLength * (headDim + valueDim); // as the kernel module counts a job
  if (options.kernel === undefined && kernel instanceof WasmFusedAttention && queryLength <= ATTENTION_ROWS_MAX_QUERIES && work < ATTENTION_ROWS_MAX_WORK
    && (mask === undefined || mask.shape[3] === keyLength) && (bias === undefined || bias.shape[3] === keyLength) && kernelRoute('attentionRows', [query, key, value, bias]).useKernel) {
    // a decoding step on wasm: the same numbers on tfjs-wasm's memory, its cached keys and values read in place
    return engine().runKernel(ATTENTION_ROWS_KERNEL, { query, key, value, ...(mask === undefined ? {} : { mask }), ...(bias === undefined ? {} : { bias }) }, { scale, keyLength }) as Tensor;
  }
  if (keyLength !== key.shape[2]) { // the kernel module reads whole rows: the first S positions, copied out
    const [first, firstValues] = [slice(key, 0, [batch, heads, keyLength, headDim]), slice(value, 0, [batch, heads, keyLength, valueDim])];
    try {
      return fusedAttention(query, first, firstValues, { ...options, keyLength: undefined });
    } finally {
      first.dispose();
      firstValues.dispose();
    }
  }
  residentOnWasm([query, key, value, mask, bias]); // before any view: a move may grow the heap
  const problem: FusedAttentionProblem = {
    batch, heads, queryLength, keyLength, headDim, valueDim, scale,
    // on tfjs-wasm, views of its heap, copied once into the kernel's memory before anything allocates
    query: backendValues(query, Float32Array),
    key: backendValues(key, Float32Array),
    value: backendValues(value, Float32Array),
    mask: mask === undefined ? undefined : broadcastRows(mask, backendValues(mask, Uint8Array), target, (n) => new Uint8Array(n)),
    bias: bias === undefined ? undefined : broadcastRows(bias, backendValues(bias, Float32Array), target, (n) => new Float32Array(n)),
  };
  // on wasm the kernel's output view can go to tfjs as is (kernelRoute); the js kernel returns its own array
  const out = kernel instanceof WasmFusedAttention && kernelRoute('fusedAttention').inPlace ? kernel.runInPlace(problem) : kernel.run(problem);
  return tensor(out, outShape, 'float32');
}
