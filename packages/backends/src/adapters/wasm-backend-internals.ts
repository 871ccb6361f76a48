import type { DataType, TensorInfo } from '@tensorflow/tfjs-core';

/**
 * The parts of tfjs-backend-wasm's `BackendWasm` (4.22; not public API) that attnkit's wasm kernel
 * fills rely on, in one place: when tfjs changes, this is the list to check.
 */
export interface WasmBackendInternals {
  dataIdMap: { get(dataId: object): { memoryOffset: number } | undefined; has(dataId: object): boolean; delete(dataId: object): boolean };
  /** A new output; with `memoryOffset`, a view that registers existing heap memory without allocating. */
  makeOutput(shape: number[], dtype: DataType, memoryOffset?: number): TensorInfo;
  disposeData(dataId: object, force?: boolean): boolean;
  readSync(dataId: object): ArrayLike<number>;
  /** The Emscripten module. */
  wasm: {
    HEAPU8: Uint8Array;
    tfjs: { disposeData(id: number): void };
    cwrap<F>(name: string, result: null, args: string[]): F;
    /** The memory: `wasmMemory` in the threaded binary, `asm.memory` in the others. */
    wasmMemory?: WebAssembly.Memory;
    asm?: { memory?: WebAssembly.Memory };
  };
}

/**
 * The byte offset of a tensor's data in the wasm heap.
 *
 * @example
 * simd.erf(heapOffset(backend, x), heapOffset(backend, out), n);
 */
export function heapOffset(backend: WasmBackendInternals, tensor: TensorInfo): number {
  return backend.dataIdMap.get(tensor.dataId)!.memoryOffset;
}
