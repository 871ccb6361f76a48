import type { KernelFunc, TensorInfo } from '@tensorflow/tfjs-core';
import { inferenceOnlyGradient } from './inference-only-gradient.js';
import { registerWasmKernel } from './register-wasm-kernel.js';
import { simdKernelsOn } from './tfjs-fills-on.js';
import { heapOffset, wasmInternals } from '../tfjs-internals.js';

/**
 * The name of attnkit's rotary-heads kernel: inputs `x [B, T, H·D]` (or `[B, T, H, D]`: the heads as
 * a projection leaves them), `cos`, `sin` `[B, T, R]` (float32, R even, ≤ D), attribute `heads` (H);
 * output `[B, H, T, D]` = the heads with rotary position embeddings applied (transformers'
 * `apply_rotary_pos_emb`, rotate_half convention; the D − R dims past R passed through): the
 * transpose and the eight tfjs ops of `applyRotary` in one pass, with the same float32 numbers.
 * Registered on wasm by `fillWasmKernels()`; `attention`'s `DecoderAttention` asks
 * `kernelRoute('rotary')` (outside gradient recording) and composes the ops elsewhere.
 *
 * @example
 * engine().runKernel(ROTARY_KERNEL, { x, cos, sin }, { heads: 9 }); // [1, 1, 576] -> [1, 9, 1, 64]
 */
export const ROTARY_KERNEL = 'AttnkitRotaryHeads';

/**
 * Registers {@link ROTARY_KERNEL} on wasm (`csrc/rotary.h`). Where WebAssembly SIMD is missing
 * nothing is registered.
 *
 * @returns `[ROTARY_KERNEL]`, or `[]` when SIMD kernels cannot run
 * @example
 * fillWasmRotary(); // after tf.setBackend('wasm')
 */
export function fillWasmRotary(): string[] {
  const kernelFunc: KernelFunc = (args) => {
    const { x, cos, sin } = args.inputs as unknown as { x: TensorInfo; cos: TensorInfo; sin: TensorInfo };
    const { heads } = args.attrs as unknown as { heads: number };
    const backend = wasmInternals(args.backend)!;
    const [batch, length] = x.shape as [number, number];
    const size = x.shape.reduce((n, s) => n * s, 1);
    const dim = x.shape.length === 4 ? (x.shape[3] as number) : (x.shape[2] as number) / heads; // [B, T, H, D] or [B, T, H·D]
    const out = backend.makeOutput([batch, heads, length, dim], 'float32');
    if (size === 0) return out;
    simdKernelsOn(backend)!.rotaryHeads(heapOffset(backend, x), heapOffset(backend, cos), heapOffset(backend, sin), heapOffset(backend, out), batch, length, heads, dim, cos.shape[2] as number);
    return out;
  };
  return registerWasmKernel(ROTARY_KERNEL, kernelFunc, inferenceOnlyGradient(ROTARY_KERNEL));
}
