import { engine, findBackend, type DataType, type Tensor, type TensorInfo } from '@tensorflow/tfjs-core';

/**
 * Every private part of TensorFlow.js that attnkit reads — tfjs-core 4.22's Engine state,
 * tfjs-backend-wasm's `BackendWasm` and its Emscripten module, the webgl and webgpu backends' GPU
 * handles — is cast here and nowhere else: when tfjs changes, this file is the list to check
 * (tfjs-internals.test.ts pins each member). Other files and packages (`@attnkit/backends`) go
 * through the typed functions below.
 */

/** The parts of tfjs-backend-wasm's `BackendWasm` that attnkit's wasm kernel fills use. */
export interface WasmBackendInternals {
  dataIdMap: { get(dataId: object): { memoryOffset: number } | undefined; has(dataId: object): boolean; delete(dataId: object): boolean };
  /** A new output; with `memoryOffset`, a view that registers existing heap memory without allocating. */
  makeOutput(shape: number[], dtype: DataType, memoryOffset?: number): TensorInfo;
  disposeData(dataId: object, force?: boolean): boolean;
  readSync(dataId: object): ArrayLike<number>;
  /** How many tensors share the data (reshapes and clones count one each). */
  refCount(dataId: object): number;
  /** The Emscripten module. */
  wasm: {
    HEAPU8: Uint8Array;
    /** `disposeData(id)` unregisters a tensor (and what XNNPACK cached for it) without freeing its memory. */
    tfjs: { disposeData(id: number): void };
    cwrap<F>(name: string, result: null, args: string[]): F;
    /** The memory: `wasmMemory` in the threaded binary, `asm.memory` in the others. */
    wasmMemory?: WebAssembly.Memory;
    asm?: { memory?: WebAssembly.Memory };
  };
}

/** The parts of tfjs' Engine that tell which backend is active, initialised or being initialised. */
export interface EngineState {
  /** The active backend's name (null before the first one). */
  readonly backendName: string | null | undefined;
  /** The active backend's instance (null until it is initialised). */
  readonly backendInstance: unknown;
  /** Set while a backend initialises (tfjs runs no kernel then). */
  readonly pendingBackendInit: Promise<unknown> | null | undefined;
  /** The initialised backends, by name. */
  readonly registry: Readonly<Record<string, unknown>>;
}

/**
 * tfjs' Engine state (a live view: read it at the moment it matters).
 *
 * @example
 * if (engineState().pendingBackendInit != null) await engineState().pendingBackendInit;
 */
export function engineState(): EngineState {
  return engine() as unknown as EngineState;
}

/**
 * A tfjs-backend-wasm backend's internals: `backend` is a kernel's `args.backend`, or by default
 * the registered wasm backend (undefined when wasm was never initialised).
 *
 * @example
 * const backend = wasmInternals(args.backend)!; backend.makeOutput(x.shape, 'float32');
 */
export function wasmInternals(backend: unknown = findBackend('wasm')): WasmBackendInternals | undefined {
  return (backend ?? undefined) as WasmBackendInternals | undefined;
}

/**
 * The memory of a tfjs-backend-wasm backend (`wasmMemory` in the threaded binary, `asm.memory` in
 * the others), or undefined where its build does not expose it.
 *
 * @example
 * new WebAssembly.Instance(module, { env: { memory: wasmMemory(backend)! } });
 */
export function wasmMemory(backend: { wasm?: Pick<WasmBackendInternals['wasm'], 'wasmMemory' | 'asm'> } | undefined): WebAssembly.Memory | undefined {
  return backend?.wasm?.wasmMemory ?? backend?.wasm?.asm?.memory;
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

/**
 * Where a tensor's data lies in the active tfjs-wasm backend's heap — the heap's buffer and the byte
 * offset — or undefined when the active backend is not wasm or does not say.
 *
 * @example
 * const at = wasmHeapLocation(x); if (at) new Float32Array(at.buffer, at.offset, x.size);
 */
export function wasmHeapLocation(tensor: Tensor): { readonly buffer: ArrayBufferLike; readonly offset: number } | undefined {
  if (engineState().backendName !== 'wasm') return undefined;
  const backend = engine().backend as unknown as Partial<WasmBackendInternals>;
  const offset = backend.dataIdMap?.get(tensor.dataId)?.memoryOffset;
  const heap = backend.wasm?.HEAPU8;
  return typeof offset === 'number' && heap !== undefined ? { buffer: heap.buffer, offset } : undefined;
}

/**
 * The WebGL context of the registered webgl backend, or undefined.
 *
 * @example
 * webglContext()?.getParameter(gl.VERSION);
 */
export function webglContext(): WebGLRenderingContext | undefined {
  return (findBackend('webgl') as unknown as { gpgpu?: { gl?: WebGLRenderingContext } } | null)?.gpgpu?.gl;
}

/**
 * The registered webgpu backend's device limit `maxStorageBufferBindingSize` (bytes), or undefined.
 *
 * @example
 * webgpuStorageBufferLimit() ?? 128 * 2 ** 20;
 */
export function webgpuStorageBufferLimit(): number | undefined {
  return (findBackend('webgpu') as unknown as { device?: { limits?: { maxStorageBufferBindingSize?: number } } } | null)?.device?.limits?.maxStorageBufferBindingSize;
}
