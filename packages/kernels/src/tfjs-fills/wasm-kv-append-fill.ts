import type { KernelFunc, TensorInfo } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, formatShape } from '@attnkit/errors';
import { inferenceOnlyGradient } from './inference-only-gradient.js';
import { registerWasmKernel } from './register-wasm-kernel.js';
import { heapOffset, wasmInternals } from '../tfjs-internals.js';

/**
 * The name of attnkit's key/value cache append on tfjs-wasm's own memory: inputs `cache [B, H, C, D]`
 * (a cache layer's keys or values, its first `length` positions set) and `rows [B, H, T, D]` (the
 * step's), attributes `length` and `capacity` (C' ≥ length + T); output `[B, H, C', D]` whose first
 * length + T positions of each (batch, head) are the cache's first `length`, then `rows`; the
 * positions after them are left unset (read only the first length + T).
 *
 * When C' = C and no other tensor shares the cache's data, the rows are written into the cache's
 * memory, which the output takes over (a new tensor on the same bytes): appending a decoding step
 * costs its T rows, not the S positions a `concat` copies. The cache tensor passed in then no longer
 * has data: dispose it at once and never read it. Otherwise (the cache grows, or its data is shared)
 * the output is new memory and the cache is left as it was. `KvCache` is its caller.
 *
 * @example
 * const grown = engine().runKernel(KV_APPEND_KERNEL, { cache, rows }, { length: 40, capacity: 64 }); // [1, 3, 64, 64]; rows at 40
 * cache.dispose();
 */
export const KV_APPEND_KERNEL = 'AttnkitKvAppend';

/**
 * Registers {@link KV_APPEND_KERNEL} on wasm (heap-to-heap copies, one per (batch, head) run). Where
 * WebAssembly SIMD is missing nothing is registered, as for attnkit's other kernels (`KvCache` then
 * concatenates).
 *
 * @returns `[KV_APPEND_KERNEL]`, or `[]` when attnkit's kernels cannot run
 * @example
 * fillWasmKvAppend(); // after tf.setBackend('wasm')
 */
export function fillWasmKvAppend(): string[] {
  const kernelFunc: KernelFunc = (args) => {
    const caller = KV_APPEND_KERNEL;
    const { cache, rows } = args.inputs as unknown as { cache: TensorInfo; rows: TensorInfo };
    const { length, capacity } = args.attrs as unknown as { length: number; capacity: number };
    const [batch, heads, stored, width] = cache.shape as [number, number, number, number];
    const added = rows.shape[2] as number;
    if (rows.shape.length !== 4 || cache.shape.length !== 4 || rows.shape[0] !== batch || rows.shape[1] !== heads || rows.shape[3] !== width || cache.dtype !== 'float32' || rows.dtype !== 'float32') {
      throw new InvalidArgumentError({ caller, argument: 'rows', expected: `float32 [B, H, T, D] with B, H, D = ${batch}, ${heads}, ${width} (from a float32 'cache')`, received: `${rows.dtype} ${formatShape(rows.shape)}` });
    }
    if (!Number.isInteger(length) || length < 0 || length > stored || !Number.isInteger(capacity) || capacity < length + added) {
      throw new InvalidArgumentError({ caller, argument: 'attrs', expected: `integers 0 ≤ length ≤ ${stored} (the cache's positions) and capacity ≥ length + ${added}`, received: `length=${length}, capacity=${capacity}` });
    }
    const backend = wasmInternals(args.backend)!;
    const [from, added0] = [heapOffset(backend, cache), heapOffset(backend, rows)]; // first: reading an offset moves a tensor held by another backend in, which may grow the heap
    const inPlace = capacity === stored && cache.dataId !== rows.dataId && backend.refCount(cache.dataId) === 1;
    let out: TensorInfo;
    if (inPlace) { // the cache's memory, registered as a new tensor: tfjs-wasm's caches keyed by tensor (XNNPACK's packed operands) never see it change
      out = backend.makeOutput([batch, heads, capacity, width], 'float32', from);
      backend.wasm.tfjs.disposeData((cache.dataId as { id: number }).id); // the input no longer owns it (unregistered, not freed)
      backend.dataIdMap.delete(cache.dataId);
    } else {
      out = backend.makeOutput([batch, heads, capacity, width], 'float32');
    }
    if (batch * heads * capacity * width === 0) return out;
    const heap = backend.wasm.HEAPU8; // read after makeOutput: allocating may grow the memory
    const to = heapOffset(backend, out);
    const [block, kept, run] = [4 * width, 4 * length * width, 4 * added * width]; // bytes: one position, the kept prefix, the step
    for (let pair = 0; pair < batch * heads; pair++) { // one (batch, head): its own run of positions
      const target = to + pair * capacity * block;
      if (!inPlace && kept > 0) heap.copyWithin(target, from + pair * stored * block, from + pair * stored * block + kept);
      if (run > 0) heap.copyWithin(target + kept, added0 + pair * run, added0 + (pair + 1) * run);
    }
    return out;
  };
  return registerWasmKernel(KV_APPEND_KERNEL, kernelFunc, inferenceOnlyGradient(KV_APPEND_KERNEL));
}
