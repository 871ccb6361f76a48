import { InvalidArgumentError, describeValue } from '@attnkit/errors';
import { getKernel, registerKernel, unregisterKernel, type KernelConfig, type KernelFunc } from '@tensorflow/tfjs-core';

const originals = new Map<string, KernelConfig>();

/**
 * Replaces one of tfjs-backend-wasm's kernels with attnkit's version, once: `wrap` gets the original
 * kernel (to fall back on, or build on) and returns the new kernel function, or `undefined` when
 * what it needs is missing, in which case the original stays.
 *
 * @returns `[name]` when the kernel is (or already was) replaced, else `[]`
 * @example
 * replaceWasmKernel('Slice', (original) => (args) => (fast(args) ?? original.kernelFunc(args)));
 */
export function replaceWasmKernel(name: string, wrap: (original: KernelConfig) => KernelFunc | undefined): string[] {
  if (originals.has(name)) return [name];
  const original = getKernel(name, 'wasm');
  if (original === undefined) return [];
  const kernelFunc = wrap(original);
  if (kernelFunc === undefined) return [];
  originals.set(name, original);
  unregisterKernel(name, 'wasm');
  registerKernel({ ...original, kernelFunc });
  return [name];
}

/**
 * tfjs-backend-wasm's own kernel that `fillWasmKernels` replaced (for tests that pin its
 * behaviour), or `undefined`.
 *
 * @example
 * originalWasmKernel('_FusedMatMul')?.kernelFunc(args);
 */
export function originalWasmKernel(name: string): KernelConfig | undefined {
  if (typeof name !== 'string' || name === '') throw new InvalidArgumentError({ caller: 'originalWasmKernel', argument: 'name', expected: 'a tfjs kernel name such as \'Erf\'', received: describeValue(name) });
  return originals.get(name);
}
