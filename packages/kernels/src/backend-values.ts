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
