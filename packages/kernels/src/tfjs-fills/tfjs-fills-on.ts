import { wasmMemory, type WasmBackendInternals } from '../tfjs-internals.js';
import { decodeBase64 } from '../decode-base64.js';
import { TFJS_FILLS_THREADS_WASM, TFJS_FILLS_WASM } from '../wasm/tfjs-fills.wasm.js';
import { threadsOnMemory, type ExternalKernelThreads } from '../kernel-threads.js';

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
/** `(x, weight, out, rows, width, eps)`: byte offsets and sizes, as rms-norm.h. */
export type RmsNormKernel = (x: number, weight: number, out: number, rows: number, width: number, eps: number) => void;
/** `(x, out, rows, width)`: rows [gate | up] of 2·width floats → rows of width, as silu-mul.h. */
export type SiluMulKernel = (x: number, out: number, rows: number, width: number) => void;
/** `(x, cos, sin, out, batch, length, heads, dim, rotaryDim)`, as rotary.h. */
export type RotaryHeadsKernel = (x: number, cos: number, sin: number, out: number, batch: number, length: number, heads: number, dim: number, rotaryDim: number) => void;
/** `(query, key, value, out, mask, bias, scratch, shape, strides, scale)`: byte offsets (0: no mask, no bias), `shape` 6 and `strides` 18 int32 words, as attention-rows.h. */
export type AttentionRowsKernel = (query: number, key: number, value: number, out: number, mask: number, bias: number, scratch: number, shape: number, strides: number, scale: number) => void;
export interface SimdKernels {
  erf: ElementwiseKernel;
  gelu: ElementwiseKernel;
  geluTanh: ElementwiseKernel;
  layerNorm: LayerNormKernel;
  maskedSoftmax: MaskedSoftmaxKernel;
  rmsNorm: RmsNormKernel;
  siluMul: SiluMulKernel;
  rotaryHeads: RotaryHeadsKernel;
  attentionRows: AttentionRowsKernel;
}

const instances = new WeakMap<object, SimdKernels>();
const sharedModules = new WeakMap<SimdKernels, { module: WebAssembly.Module; memory: WebAssembly.Memory }>(); // the threads variant's, for the workers

/**
 * Whether attnkit's SIMD kernels can run on this backend: WebAssembly SIMD is supported and the
 * tfjs-backend-wasm build exposes its memory.
 *
 * @example
 * if (simdKernelsRun(findBackend('wasm'))) registerKernel(...);
 */
export function simdKernelsRun(backend: SimdBackend | undefined): boolean {
  return wasmMemory(backend) !== undefined && WebAssembly.validate(decodeBase64(TFJS_FILLS_WASM));
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
  const memory = wasmMemory(backend);
  if (memory === undefined) return undefined;
  const shared = typeof SharedArrayBuffer !== 'undefined' && memory.buffer instanceof SharedArrayBuffer;
  const module = new WebAssembly.Module(decodeBase64(shared ? TFJS_FILLS_THREADS_WASM : TFJS_FILLS_WASM));
  const kernels = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as SimdKernels;
  instances.set(backend, kernels);
  if (shared) sharedModules.set(kernels, { module, memory });
  return kernels;
}

/**
 * The kernel threads for jobs of the fills on this backend's memory (`run_part` of the threads
 * variant: attention rows split by (batch, head) pairs), or `undefined` where tfjs-wasm's memory
 * is not shared (its single-threaded build) or the kernels have no threads here.
 *
 * @example
 * fillThreadsOn(backend)?.run(jobOffset, multiplyAdds);
 */
export function fillThreadsOn(backend: SimdBackend): ExternalKernelThreads | undefined {
  const kernels = simdKernelsOn(backend);
  const shared = kernels === undefined ? undefined : sharedModules.get(kernels);
  return shared === undefined ? undefined : threadsOnMemory(shared.module, shared.memory, kernels as unknown as { run_part(job: number, part: number, parts: number): void });
}
