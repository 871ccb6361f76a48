import type { Tensor } from '@tensorflow/tfjs-core';
import { wasmHeapLocation } from './tfjs-internals.js';

/**
 * A tensor's values for reading at once: on tfjs-wasm a view of the backend's heap (no copy; valid
 * only until the next tfjs call allocates), elsewhere `dataSync()`. Float32 and bool only.
 *
 * @example
 * kernelMemory.set(backendValues(query, Float32Array)); // one copy instead of two on wasm
 */
export function backendValues<V extends Float32Array | Uint8Array>(tensor: Tensor, kind: { new (buffer: ArrayBufferLike, offset: number, length: number): V }): V {
  const at = wasmHeapLocation(tensor);
  if (at !== undefined && at.offset % 4 === 0) return new kind(at.buffer, at.offset, tensor.size); // tfjs-wasm's malloc aligns to 16
  return tensor.dataSync() as V;
}

/**
 * Moves every given tensor that another backend holds into the active tfjs-wasm backend now (on
 * other backends: nothing). Taking a tensor's view with {@link backendValues} moves it in first, and
 * a move allocates, which may grow the heap and leave views taken before it stale: call this on all
 * of a kernel's inputs before taking the first view.
 *
 * @example
 * residentOnWasm([query, key, value, mask]); const q = backendValues(query, Float32Array);
 */
export function residentOnWasm(tensors: readonly (Tensor | undefined)[]): void {
  for (const t of tensors) if (t !== undefined) wasmHeapLocation(t);
}
