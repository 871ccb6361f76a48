import { setBackend } from '@tensorflow/tfjs-core';
import { fillWasmKernels } from '../tfjs-fills/fill-wasm-kernels.js';

/** Set in Chromium by the attnkitWasm() plugin of the browser test config: where the wasm binaries are served. */
declare const __ATTNKIT_WASM_BASE__: string | undefined;

let wasmPathsSet = false;

/**
 * For this package's tests, which cannot use `useBackend` (`@attnkit/backends` sits above this
 * package): makes `name` the active tfjs backend as tfjs itself starts it — cpu; wasm (Node:
 * tfjs-backend-wasm's single-threaded binary from the installed package; Chromium: the binaries the
 * browser test config serves) followed by `fillWasmKernels()`, as `useBackend('wasm')` does; webgl.
 * `useBackend` itself (threads, binaries, the fills on its shared memory) is tested in
 * `@attnkit/backends`.
 *
 * @returns the kernels `fillWasmKernels()` registered (none off wasm), as `useBackend` reports them
 * @example
 * const { filledKernels } = await useTfjsBackend('wasm'); // filledKernels includes GELU_KERNEL
 */
export async function useTfjsBackend(name: 'cpu' | 'wasm' | 'webgl'): Promise<{ readonly filledKernels: readonly string[] }> {
  if (name === 'cpu') await import('@tensorflow/tfjs-backend-cpu');
  if (name === 'webgl') await import('@tensorflow/tfjs-backend-webgl');
  if (name === 'wasm') {
    const wasm = await import('@tensorflow/tfjs-backend-wasm');
    if (!wasmPathsSet && typeof __ATTNKIT_WASM_BASE__ === 'string') wasm.setWasmPaths(__ATTNKIT_WASM_BASE__);
    wasmPathsSet = true;
  }
  if (!(await setBackend(name))) throw new Error(`useTfjsBackend: tf.setBackend('${name}') failed`);
  return { filledKernels: name === 'wasm' ? fillWasmKernels() : [] };
}
