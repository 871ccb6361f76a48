import type { KernelFunc, TensorInfo } from '@tensorflow/tfjs-core';
import { inferenceOnlyGradient } from './inference-only-gradient.js';
import { registerWasmKernel } from './register-wasm-kernel.js';
import { simdKernelsOn } from './tfjs-fills-on.js';
import { heapOffset, wasmInternals } from '../tfjs-internals.js';

/**
 * The name of attnkit's fused RMS-normalisation kernel: inputs `x [..., E]`, `weight [E]` (float32),
 * attribute `epsilon`; output `[..., E]` = `x · 1/√(mean(x²) + eps) · weight` per row, as
 * transformers' LlamaRMSNorm. Registered on wasm by `fillWasmKernels()`; `nn`'s `rmsNorm` asks
 * `kernelRoute('rmsNorm')` (outside gradient recording) and composes six tfjs ops elsewhere.
 *
 * @example
 * engine().runKernel(RMS_NORM_KERNEL, { x, weight }, { epsilon: 1e-6 }); // [B, T, E] -> [B, T, E]
 */
export const RMS_NORM_KERNEL = 'AttnkitRmsNorm';

/**
 * Registers {@link RMS_NORM_KERNEL} on wasm (`csrc/rms-norm.h`: one SIMD pass per row for the mean
 * of squares, one for the output). Where WebAssembly SIMD is missing nothing is registered.
 *
 * @returns `[RMS_NORM_KERNEL]`, or `[]` when SIMD kernels cannot run
 * @example
 * fillWasmRmsNorm(); // after tf.setBackend('wasm')
 */
export function fillWasmRmsNorm(): string[] {
  const kernelFunc: KernelFunc = (args) => {
    const { x, weight } = args.inputs as unknown as { x: TensorInfo; weight: TensorInfo };
    const { epsilon } = args.attrs as unknown as { epsilon: number };
    const backend = wasmInternals(args.backend)!;
    const width = x.shape.at(-1) ?? 1;
    const rows = width === 0 ? 0 : x.shape.reduce((n, s) => n * s, 1) / width;
    const out = backend.makeOutput(x.shape, 'float32');
    if (rows === 0) return out;
    simdKernelsOn(backend)!.rmsNorm(heapOffset(backend, x), heapOffset(backend, weight), heapOffset(backend, out), rows, width, epsilon);
    return out;
  };
  return registerWasmKernel(RMS_NORM_KERNEL, kernelFunc, inferenceOnlyGradient(RMS_NORM_KERNEL));
}
