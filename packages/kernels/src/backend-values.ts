import { engine, getBackend, type Tensor } from '@tensorflow/tfjs-core';

/** The parts of tfjs-backend-wasm's `BackendWasm` (4.22; not public API) read here — the same ones `@attnkit/backends` lists in `WasmBackendInternals`. */
interface WasmBackendData {
  dataIdMap?: { get(dataId: object): { memoryOffset?: number } | undefined };
  wasm?: { HEAPU8?: Uint8Array };
}

/**
 * A tensor's values for reading at once: on tfjs-wasm a view of the backend's heap (no copy; valid
 * only until the next tfjs call allocates), elsewhere `dataSync()`. Float32 and bool only.
 *
 * @example
 * kernelMemory.set(backendValues(query, Float32Array)); // one copy instead of two on wasm
 */
export function backendValues<V extends Float32Array | Uint8Array>(tensor: Tensor, kind: { new (buffer: ArrayBufferLike, offset: number, length: number): V }): V {
  if (getBackend() === 'wasm') {
    const backend = engine().backend as unknown as WasmBackendData;
    const offset = backend.dataIdMap?.get(tensor.dataId)?.memoryOffset;
    const heap = backend.wasm?.HEAPU8;
    if (typeof offset === 'number' && heap !== undefined && offset % 4 === 0) return new kind(heap.buffer, offset, tensor.size); // tfjs-wasm's malloc aligns to 16
  }
  return tensor.dataSync() as V;
}
