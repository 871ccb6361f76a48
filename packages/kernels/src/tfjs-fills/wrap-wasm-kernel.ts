import { getKernel, registerKernel, unregisterKernel, type KernelConfig, type KernelFunc } from '@tensorflow/tfjs-core';

const wrapped = new Set<string>();

/**
 * Wraps the kernel registered on wasm under `name` now (tfjs-backend-wasm's own, or one that
 * {@link replaceWasmKernel} installed), once: `wrap` gets that kernel and returns the kernel that
 * takes its place. Unlike `replaceWasmKernel`, it builds on what is registered, so a guard that
 * every call must pass can sit in front of attnkit's own fills.
 *
 * @returns `[name]` when the kernel is (or already was) wrapped, else `[]` (wasm has no such kernel)
 * @example
 * wrapWasmKernel('Transpose', (current) => (args) => (empty(args) ?? current.kernelFunc(args)));
 */
export function wrapWasmKernel(name: string, wrap: (current: KernelConfig) => KernelFunc): string[] {
  if (wrapped.has(name)) return [name];
  const current = getKernel(name, 'wasm');
  if (current === undefined) return [];
  const kernelFunc = wrap(current);
  wrapped.add(name);
  unregisterKernel(name, 'wasm');
  registerKernel({ ...current, kernelFunc });
  return [name];
}
