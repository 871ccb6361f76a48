import { getGradient, getKernel, registerGradient, registerKernel, type GradConfig, type KernelFunc } from '@tensorflow/tfjs-core';
import { simdKernelsRun } from './tfjs-fills-on.js';
import { wasmInternals } from '../tfjs-internals.js';

/**
 * Registers one of attnkit's own SIMD kernels (a name tfjs does not have) on wasm, with its
 * gradient, once; nothing where WebAssembly SIMD cannot run (the ops then compose tfjs ops).
 *
 * @returns `[name]`, or `[]` when nothing was registered
 * @example
 * registerWasmKernel(GELU_KERNEL, kernelFunc, { inputsToSave: ['x'], gradFunc });
 */
export function registerWasmKernel(name: string, kernelFunc: KernelFunc, gradient: Omit<GradConfig, 'kernelName'>): string[] {
  if (getKernel(name, 'wasm') !== undefined) return [name];
  if (!simdKernelsRun(wasmInternals())) return [];
  registerKernel({ kernelName: name, backendName: 'wasm', kernelFunc });
  if (getGradient(name) === undefined) registerGradient({ kernelName: name, ...gradient });
  return [name];
}
