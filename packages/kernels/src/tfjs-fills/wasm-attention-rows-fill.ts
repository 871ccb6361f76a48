import type { KernelFunc, TensorInfo } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, describeValue } from '@attnkit/errors';
import { inferenceOnlyGradient } from './inference-only-gradient.js';
import { registerWasmKernel } from './register-wasm-kernel.js';
import { allocateAttentionRows, runAttentionRows } from './run-attention-rows.js';
import { heapOffset, wasmInternals } from '../tfjs-internals.js';

/**
 * The name of attnkit's fused attention for few query rows on tfjs-wasm's own memory: inputs
 * `query [B, H, T, D]`, `key [B, H, S, D]`, `value [B, H, S, Dv]` (float32), optional bool `mask` and
 * float32 `bias` `[B|1, H|1, T|1, S]` (the last axis whole); attribute `scale`; output `[B, H, T, Dv]`
 * = `softmax(query · keyᵀ · scale + bias, mask) · value`, with the numbers of `fusedAttention`'s wasm
 * kernel. With the attribute `keyLength` S, `key` and `value` may hold more positions
 * (`[B, H, C, D]`, C ≥ S, a `KvCache` layer grown ahead): only their first S are read. It reads a decoding step's cached keys and values where they lie, where the kernel module
 * copies them into its own memory first. `fusedAttention` sends it a call of at most
 * `ATTENTION_ROWS_MAX_QUERIES` query rows and `ATTENTION_ROWS_MAX_WORK` multiply-adds on wasm.
 *
 * @example
 * engine().runKernel(ATTENTION_ROWS_KERNEL, { query, key, value, mask }, { scale: 0.125 }); // [1, 3, 3, 64] over S keys -> [1, 3, 3, 64]
 */
export const ATTENTION_ROWS_KERNEL = 'AttnkitAttentionRows';

/** The most query rows (T) `fusedAttention` runs as {@link ATTENTION_ROWS_KERNEL}: a decoding step, its query heads grouped per key/value head. */
export const ATTENTION_ROWS_MAX_QUERIES = 4;

/**
 * The most work (B·H·T·S·(D + Dv) multiply-adds) `fusedAttention` runs as {@link ATTENTION_ROWS_KERNEL}:
 * a decoding step over a few thousand positions. Above it the kernel module's threads pay for
 * copying the keys and values in.
 */
export const ATTENTION_ROWS_MAX_WORK = 2 ** 23;

/** Element strides of batch, head and row of a `[b, h, t, n]` operand, 0 along an axis of size 1 (broadcast). */
function strides(shape: readonly number[]): [number, number, number] {
  const [b, h, t, n] = shape as [number, number, number, number];
  return [b === 1 ? 0 : h * t * n, h === 1 ? 0 : t * n, t === 1 ? 0 : n];
}

/**
 * Registers {@link ATTENTION_ROWS_KERNEL} on wasm (`csrc/attention-rows.h`). Where WebAssembly SIMD
 * is missing nothing is registered.
 *
 * @returns `[ATTENTION_ROWS_KERNEL]`, or `[]` when SIMD kernels cannot run
 * @example
 * fillWasmAttentionRows(); // after tf.setBackend('wasm')
 */
export function fillWasmAttentionRows(): string[] {
  const kernelFunc: KernelFunc = (args) => {
    const { query, key, value, mask, bias } = args.inputs as unknown as { query: TensorInfo; key: TensorInfo; value: TensorInfo; mask?: TensorInfo; bias?: TensorInfo };
    const { scale, keyLength: given } = args.attrs as unknown as { scale: number; keyLength?: number };
    const backend = wasmInternals(args.backend)!;
    const [batch, heads, queryLength, headDim] = query.shape as [number, number, number, number];
    if (given !== undefined && !(Number.isInteger(given) && given >= 0 && given <= (key.shape[2] as number))) {
      throw new InvalidArgumentError({ caller: ATTENTION_ROWS_KERNEL, argument: 'keyLength', expected: `an integer from 0 to ${key.shape[2]} (the positions key holds)`, received: describeValue(given) });
    }
    const [keyLength, valueDim] = [given ?? (key.shape[2] as number), value.shape[3] as number]; // the strides below step over the whole axis
    const out = backend.makeOutput([batch, heads, queryLength, valueDim], 'float32');
    if (batch * heads * queryLength * valueDim === 0) return out;
    const [query_, key_, value_] = [query, key, value].map((t) => heapOffset(backend, t)) as [number, number, number];
    runAttentionRows(backend, allocateAttentionRows(backend, keyLength, headDim), { query: query_, key: key_, value: value_, out: heapOffset(backend, out), mask: mask === undefined ? 0 : heapOffset(backend, mask), bias: bias === undefined ? 0 : heapOffset(backend, bias) },
      [batch, heads, queryLength, keyLength, headDim, valueDim],
      [...strides(query.shape), ...strides(key.shape), ...strides(value.shape), ...strides(out.shape), ...(mask === undefined ? [0, 0, 0] : strides(mask.shape)), ...(bias === undefined ? [0, 0, 0] : strides(bias.shape))], scale);
    return out;
  };
  return registerWasmKernel(ATTENTION_ROWS_KERNEL, kernelFunc, inferenceOnlyGradient(ATTENTION_ROWS_KERNEL));
}
