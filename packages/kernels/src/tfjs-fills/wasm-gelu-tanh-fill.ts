import type { KernelFunc, TensorInfo } from '@tensorflow/tfjs-core';
import { inferenceOnlyGradient } from './inference-only-gradient.js';
import { registerWasmKernel } from './register-wasm-kernel.js';
import { simdKernelsOn } from './tfjs-fills-on.js';
import { heapOffset, wasmInternals } from '../tfjs-internals.js';

/**
 * The name of attnkit's tanh-approximated GELU kernel, `0.5 · x · (1 + tanh(√(2/π) · (x + 0.044715 · x³)))`
 * (GPT-2's `gelu_new`), one float32 input `x`, output of the same shape; computed as the equal
 * `x / (1 + exp(−2u))` in one SIMD pass (float32 exp within 2 ulp). Registered on wasm by
 * `fillWasmKernels()`; `nn`'s `geluTanh` asks `kernelRoute('geluTanh')` (outside gradient recording)
 * and composes the eight tfjs ops elsewhere.
 *
 * @example
 * engine().runKernel(GELU_TANH_KERNEL, { x }); // [B, T, I] -> [B, T, I]
 */
export const GELU_TANH_KERNEL = 'AttnkitGeluTanh';

/**
 * Registers {@link GELU_TANH_KERNEL} on wasm (`csrc/gelu-tanh.h`). Where WebAssembly SIMD is
 * missing nothing is registered.
 *
 * @returns `[GELU_TANH_KERNEL]`, or `[]` when SIMD kernels cannot run
 * @example
 * fillWasmGeluTanh(); // after tf.setBackend('wasm')
 */
export function fillWasmGeluTanh(): string[] {
  const kernelFunc: KernelFunc = (args) => {
    const { x } = args.inputs as unknown as { x: TensorInfo };
    const backend = wasmInternals(args.backend)!;
    const out = backend.makeOutput(x.shape, 'float32');
    const length = x.shape.reduce((n, s) => n * s, 1);
    if (length === 0) return out;
    simdKernelsOn(backend)!.geluTanh(heapOffset(backend, x), heapOffset(backend, out), length);
    return out;
  };
  return registerWasmKernel(GELU_TANH_KERNEL, kernelFunc, inferenceOnlyGradient(GELU_TANH_KERNEL));
}
