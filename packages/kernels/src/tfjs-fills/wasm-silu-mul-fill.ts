import type { KernelFunc, TensorInfo } from '@tensorflow/tfjs-core';
import { inferenceOnlyGradient } from './inference-only-gradient.js';
import { registerWasmKernel } from './register-wasm-kernel.js';
import { simdKernelsOn } from './tfjs-fills-on.js';
import { heapOffset, wasmInternals } from '../tfjs-internals.js';

/**
 * The name of attnkit's SwiGLU product kernel: input `x [..., 2F]` (float32: the gate's F columns,
 * then the up projection's, as one int8 product of both leaves them); output `[..., F]` =
 * `silu(gate) · up`, silu(g) = g / (1 + exp(−g)) (float32 exp within 2 ulp). Registered on wasm by
 * `fillWasmKernels()`; `nn`'s `GatedFeedForward` asks `kernelRoute('siluMul')` (outside gradient
 * recording) and composes split, sigmoid and two products elsewhere.
 *
 * @example
 * engine().runKernel(SILU_MUL_KERNEL, { x }); // [B, T, 2F] -> [B, T, F]
 */
export const SILU_MUL_KERNEL = 'AttnkitSiluMul';

/**
 * Registers {@link SILU_MUL_KERNEL} on wasm (`csrc/silu-mul.h`). Where WebAssembly SIMD is missing
 * nothing is registered.
 *
 * @returns `[SILU_MUL_KERNEL]`, or `[]` when SIMD kernels cannot run
 * @example
 * fillWasmSiluMul(); // after tf.setBackend('wasm')
 */
export function fillWasmSiluMul(): string[] {
  const kernelFunc: KernelFunc = (args) => {
    const { x } = args.inputs as unknown as { x: TensorInfo };
    const backend = wasmInternals(args.backend)!;
    const width = (x.shape.at(-1) ?? 0) / 2;
    const shape = [...x.shape.slice(0, -1), width];
    const rows = width === 0 ? 0 : shape.reduce((n, s) => n * s, 1) / width;
    const out = backend.makeOutput(shape, 'float32');
    if (rows === 0) return out;
    simdKernelsOn(backend)!.siluMul(heapOffset(backend, x), heapOffset(backend, out), rows, width);
    return out;
  };
  return registerWasmKernel(SILU_MUL_KERNEL, kernelFunc, inferenceOnlyGradient(SILU_MUL_KERNEL));
}
