import type { WasmBackendInternals } from '../wasm-backend-internals.js';
import { simdWasm } from './simd-wasm.js';

/** What the SIMD kernels need of a tfjs-backend-wasm backend: its Emscripten module's memory. */
export interface SimdBackend {
  wasm: Pick<WasmBackendInternals['wasm'], 'wasmMemory' | 'asm'>;
}
/** `(in, out, n)`: byte offsets of two float32 arrays of n elements in the backend's memory. */
export type ElementwiseKernel = (input: number, output: number, length: number) => void;
/** `(x, gamma, beta, out, rows, width, eps)`: byte offsets, then `x` and `out` as `[rows, width]`. */
export type LayerNormKernel = (x: number, gamma: number, beta: number, out: number, rows: number, width: number, eps: number) => void;
/** `(scores, mask, out, rows, width, maskRowBytes)`: byte offsets, `scores`/`out` as `[rows, width]`, `mask` one byte per entry (non-zero = allowed). */
export type MaskedSoftmaxKernel = (scores: number, mask: number, out: number, rows: number, width: number, maskRowBytes: number) => void;
export interface SimdKernels {
  erf: ElementwiseKernel;
  gelu: ElementwiseKernel;
  layerNorm: LayerNormKernel;
  maskedSoftmax: MaskedSoftmaxKernel;
}

const instances = new WeakMap<object, SimdKernels>();

function decode(base64: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

function memoryOf(backend: SimdBackend | undefined): WebAssembly.Memory | undefined {
  return backend?.wasm?.wasmMemory ?? backend?.wasm?.asm?.memory;
}

/**
 * Whether attnkit's SIMD kernels can run on this backend: WebAssembly SIMD is supported and the
 * tfjs-backend-wasm build exposes its memory.
 *
 * @example
 * if (simdKernelsRun(findBackend('wasm'))) registerKernel(...);
 */
export function simdKernelsRun(backend: SimdBackend | undefined): boolean {
  return memoryOf(backend) !== undefined && WebAssembly.validate(decode(simdWasm.plain));
}

/**
 * attnkit's SIMD kernels instantiated on this backend's own memory (once per backend; the module
 * is a few KB, so it compiles synchronously), or `undefined` where they cannot run.
 *
 * @example
 * simdKernelsOn(backend)?.erf(inOffset, outOffset, n);
 */
export function simdKernelsOn(backend: SimdBackend): SimdKernels | undefined {
  const known = instances.get(backend);
  if (known !== undefined) return known;
  const memory = memoryOf(backend);
  if (memory === undefined) return undefined;
  const shared = typeof SharedArrayBuffer !== 'undefined' && memory.buffer instanceof SharedArrayBuffer;
  const module = new WebAssembly.Module(decode(shared ? simdWasm.shared : simdWasm.plain));
  const kernels = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as SimdKernels;
  instances.set(backend, kernels);
  return kernels;
}
