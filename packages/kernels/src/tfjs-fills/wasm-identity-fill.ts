import type { KernelFunc, TensorInfo } from '@tensorflow/tfjs-core';
import { replaceWasmKernel } from './replace-wasm-kernel.js';

/** What the Identity kernel needs of tfjs-backend-wasm: its reference count on a tensor's data. */
interface RefCountingBackend {
  incRef(dataId: object): void;
}

/**
 * tfjs-backend-wasm 4.22's `Identity` (what `tensor.clone()` runs) copies the tensor's bytes into a
 * new allocation, where tfjs-backend-cpu's shares them and counts a reference, as every backend's
 * `Reshape` does. Tensors are immutable, so a copy buys nothing: a decoder's key/value cache hands
 * out clones of its whole `[B, Hkv, S, D]` keys and values every step, and `Dropout` outside
 * training returns a clone. This re-registers `Identity` on wasm to share the data and count a
 * reference (disposing either tensor frees the bytes only when both are gone). Strings keep the
 * original kernel.
 *
 * @returns `['Identity']`, or `[]` if tfjs-backend-wasm has no Identity kernel
 * @example
 * fillWasmIdentity(); // after tf.setBackend('wasm'); x.clone() no longer copies x's bytes
 */
export function fillWasmIdentity(): string[] {
  return replaceWasmKernel('Identity', (kernel) => {
    const kernelFunc: KernelFunc = (args) => {
      const { x } = args.inputs as unknown as { x: TensorInfo };
      if (x.dtype === 'string') return kernel.kernelFunc(args);
      (args.backend as unknown as RefCountingBackend).incRef(x.dataId);
      return { dataId: x.dataId, shape: [...x.shape], dtype: x.dtype };
    };
    return kernelFunc;
  });
}
