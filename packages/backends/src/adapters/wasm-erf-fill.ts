import { findBackend, getKernel, registerKernel, unregisterKernel, type KernelConfig, type KernelFunc, type TensorInfo } from '@tensorflow/tfjs-core';
import { erfWasm } from './simd-erf/erf-wasm.js';

/** The parts of tfjs-backend-wasm's BackendWasm (4.22) this fill relies on. */
interface WasmBackendInternals {
  dataIdMap: { get(dataId: object): { memoryOffset: number } | undefined };
  makeOutput(shape: number[], dtype: 'float32'): TensorInfo;
  /** The Emscripten module: `wasmMemory` in the threaded binary, `asm.memory` in the others. */
  wasm: { wasmMemory?: WebAssembly.Memory; asm?: { memory?: WebAssembly.Memory } };
}
type ErfFunction = (input: number, output: number, length: number) => void;

let original: KernelConfig | undefined;
const instances = new WeakMap<object, ErfFunction>();

function decode(base64: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

function memoryOf(backend: WasmBackendInternals | undefined): WebAssembly.Memory | undefined {
  return backend?.wasm?.wasmMemory ?? backend?.wasm?.asm?.memory;
}

/** The SIMD erf instantiated on this backend's own memory (once per backend). */
function erfOn(backend: WasmBackendInternals): ErfFunction | undefined {
  const known = instances.get(backend);
  if (known !== undefined) return known;
  const memory = memoryOf(backend);
  if (memory === undefined) return undefined;
  const shared = typeof SharedArrayBuffer !== 'undefined' && memory.buffer instanceof SharedArrayBuffer;
  const module = new WebAssembly.Module(decode(shared ? erfWasm.shared : erfWasm.plain)); // ≈ 6 KB: synchronous compile is allowed
  const erf = new WebAssembly.Instance(module, { env: { memory } }).exports.erf as ErfFunction;
  instances.set(backend, erf);
  return erf;
}

/**
 * tfjs-backend-wasm 4.22 computes `Erf` one scalar at a time (≈ 15 ns per element here); exact GELU
 * in every BERT layer spends ≈ 140 ms of an 8 × 128 MiniLM forward in it. This re-registers `Erf`
 * on wasm with a SIMD kernel (see `simd-erf/erf-wat.ts`: 4 vectors in flight, max error 1.6e-7
 * against float64) that runs in place on the backend's memory, no copies. Only float32 inputs
 * reach kernels (the `erf` op casts), and where the browser lacks WebAssembly SIMD the original
 * kernel stays (as it does if a tfjs release stops exposing the memory). Gradients are unchanged (tfjs registers Erf's gradient independently of backends).
 *
 * @returns `['Erf']`, or `[]` when the original kernel stays
 * @example
 * fillWasmErf(); // after tf.setBackend('wasm'); erf(x) of any shape
 */
export function fillWasmErf(): string[] {
  if (original !== undefined) return ['Erf'];
  const kernel = getKernel('Erf', 'wasm');
  const backend = findBackend('wasm') as unknown as WasmBackendInternals | undefined;
  if (kernel === undefined || memoryOf(backend) === undefined || !WebAssembly.validate(decode(erfWasm.plain))) return [];
  original = kernel;
  const kernelFunc: KernelFunc = (args) => {
    const { x } = args.inputs as unknown as { x: TensorInfo };
    const backend = args.backend as unknown as WasmBackendInternals;
    const erf = erfOn(backend);
    if (erf === undefined) return kernel.kernelFunc(args);
    const out = backend.makeOutput(x.shape, 'float32');
    const length = x.shape.reduce((n, s) => n * s, 1);
    erf(backend.dataIdMap.get(x.dataId)!.memoryOffset, backend.dataIdMap.get(out.dataId)!.memoryOffset, length);
    return out;
  };
  unregisterKernel('Erf', 'wasm');
  registerKernel({ ...kernel, kernelFunc });
  return ['Erf'];
}
