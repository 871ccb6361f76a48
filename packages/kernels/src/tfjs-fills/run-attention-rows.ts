import type { TensorInfo } from '@tensorflow/tfjs-core';
import { MAX_KERNEL_CHUNKS, type ExternalKernelThreads } from '../kernel-threads.js';
import { heapOffset, type WasmBackendInternals } from '../tfjs-internals.js';
import { fillThreadsOn, simdKernelsOn } from './tfjs-fills-on.js';

/** Byte offsets in tfjs-wasm's heap of the attention rows' operands (0: no mask, no bias). */
export interface AttentionRowsOperands {
  readonly query: number;
  readonly key: number;
  readonly value: number;
  readonly out: number;
  readonly mask: number;
  readonly bias: number;
}

/** What {@link runAttentionRows} works in, allocated on the backend by {@link allocateAttentionRows}. */
export interface AttentionRowsBuffers {
  readonly scratch: TensorInfo;
  readonly words: TensorInfo;
  readonly threads: ExternalKernelThreads | undefined;
  /** Floats of scratch each part uses: up to 4 scaled query rows [4, D] and their scores [4, S]. */
  readonly perPart: number;
}

/**
 * Allocates the scratch and words of one {@link runAttentionRows} call over S keys of head dim D:
 * scratch for every chunk a job may be cut into where the kernel threads can run the fills
 * (tfjs-wasm's memory is shared with them), for one part elsewhere. Allocating before anything
 * is written lets a caller that takes memory over (a KV cache in place) do every allocation first.
 *
 * @example
 * const buffers = allocateAttentionRows(backend, 160, 64);
 */
export function allocateAttentionRows(backend: WasmBackendInternals, keys: number, dim: number): AttentionRowsBuffers {
  const threads = fillThreadsOn(backend);
  const perPart = 4 * (dim + keys);
  const scratch = backend.makeOutput([(threads === undefined ? 1 : MAX_KERNEL_CHUNKS) * perPart + 1], 'float32');
  try {
    return { scratch, words: backend.makeOutput([24 + 12], 'int32'), threads, perPart }; // the shape, the strides, then the job
  } catch (error) {
    backend.disposeData(scratch.dataId);
    throw error;
  }
}

/**
 * Runs the attention rows (`csrc/attention-rows.h`) on tfjs-wasm's memory: `shape` the 6 words
 * `[B, H, T, S, D, Dv]` (H: the heads the rows are grouped by; T ≤ 4 rows each), `strides` the 18
 * element strides (batch, head, row of query, key, value, out, mask, bias). With kernel threads
 * on tfjs-wasm's memory (its threaded build) the (batch, head) pairs are split among them, each
 * part with its own scratch; elsewhere, or below `SMALL_JOB_WORK`, it runs on the calling thread.
 * The numbers are the same either way: each pair is computed by the same code. Frees `buffers`.
 *
 * @example
 * runAttentionRows(backend, allocateAttentionRows(backend, 160, 64), { query, key, value, out, mask: 0, bias: 0 }, [1, 3, 3, 160, 64, 64], strides, 0.125);
 */
export function runAttentionRows(backend: WasmBackendInternals, buffers: AttentionRowsBuffers, operands: AttentionRowsOperands, shape: readonly number[], strides: readonly number[], scale: number): void {
  const { scratch, words, threads, perPart } = buffers;
  try {
    const [batch, heads, rows, keys, dim, valueDim] = shape as [number, number, number, number, number, number];
    const [scratchAt, at] = [heapOffset(backend, scratch), heapOffset(backend, words)];
    const view = new Int32Array(backend.wasm.HEAPU8.buffer, at, 36); // the heap as it is after the allocations
    view.set(shape.slice(0, 6));
    view.set(strides.slice(0, 18), 6);
    const { query, key, value, out, mask, bias } = operands;
    if (threads === undefined) {
      simdKernelsOn(backend)!.attentionRows(query, key, value, out, mask, bias, scratchAt, at, at + 24, scale);
      return;
    }
    view.set([1, query, key, value, out, mask, bias, scratchAt, perPart, at, at + 24, new Int32Array(Float32Array.of(scale).buffer)[0] as number], 24);
    threads.run(at + 96, batch * heads > 1 ? batch * heads * rows * keys * (dim + valueDim) : 0, batch * heads); // one pair: one part, on this thread
  } finally {
    backend.disposeData(scratch.dataId);
    backend.disposeData(words.dataId);
  }
}
