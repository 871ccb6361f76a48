import { type KernelFunc, type TensorInfo } from '@tensorflow/tfjs-core';
import { replaceWasmKernel } from './replace-wasm-kernel.js';
import { simdKernelsOn, simdKernelsRun } from './tfjs-fills-on.js';
import { heapOffset, wasmInternals } from '../tfjs-internals.js';

/**
 * tfjs-backend-wasm 4.22 computes `Erf` one scalar at a time (≈ 15 ns per element here); exact GELU
 * in every BERT layer spent ≈ 140 ms of an 8 × 128 MiniLM forward in it. This re-registers `Erf`
 * on wasm with a SIMD kernel (`csrc/tfjs-fills.c`: 4 vectors in flight, max error 1.6e-7
 * against float64) that reads and writes the backend's memory directly, no copies. Only float32
 * inputs reach kernels (the `erf` op casts). Where WebAssembly SIMD is missing, or a tfjs release
 * stops exposing the memory, the original kernel stays. Gradients are unchanged (tfjs registers
 * Erf's gradient independently of backends).
 *
 * @returns `['Erf']`, or `[]` when the original kernel stays
 * @example
 * fillWasmErf(); // after tf.setBackend('wasm'); erf(x) of any shape
 */
export function fillWasmErf(): string[] {
  return replaceWasmKernel('Erf', (kernel) => {
    if (!simdKernelsRun(wasmInternals())) return undefined;
    const kernelFunc: KernelFunc = (args) => {
      const { x } = args.inputs as unknown as { x: TensorInfo };
      const backend = wasmInternals(args.backend)!;
      const simd = simdKernelsOn(backend);
      if (simd === undefined) return kernel.kernelFunc(args);
      const out = backend.makeOutput(x.shape, 'float32');
      const length = x.shape.reduce((n, s) => n * s, 1);
      simd.erf(heapOffset(backend, x), heapOffset(backend, out), length);
      return out;
    };
    return kernelFunc;
  });
}
