import { add, erf, exp, mul, square, type KernelFunc, type Tensor, type TensorInfo } from '@tensorflow/tfjs-core';
import { registerWasmKernel } from './register-wasm-kernel.js';
import { simdKernelsOn } from './tfjs-fills-on.js';
import { heapOffset, wasmInternals } from '../tfjs-internals.js';

/**
 * The name of attnkit's fused exact-GELU kernel, `x · Φ(x)`, one float32 input `x`, output of the
 * same shape. Registered on wasm by `fillWasmKernels()` (`useBackend('wasm')`); ops ask `kernelRoute('gelu')`
 * and compose `0.5 · x · (1 + erf(x / √2))` from tfjs ops elsewhere.
 *
 * @example
 * kernelRoute('gelu', [x]).useKernel ? engine().runKernel(GELU_KERNEL, { x }) : composite(x);
 */
export const GELU_KERNEL = 'AttnkitGelu';

/**
 * Registers {@link GELU_KERNEL} on wasm: exact GELU in one SIMD pass over the backend's memory
 * (`csrc/tfjs-fills.c`), where the composite takes five passes (three multiplies, an add
 * and erf); in a MiniLM 8 × 128 forward that is ≈ 6 × [1024, 1536] elements. Its gradient,
 * `dy · (Φ(x) + x · φ(x))`, is registered with it. Where WebAssembly SIMD is missing nothing is
 * registered, and the composite runs.
 *
 * @returns `[GELU_KERNEL]`, or `[]` when SIMD kernels cannot run
 * @example
 * fillWasmGelu(); // after tf.setBackend('wasm')
 */
export function fillWasmGelu(): string[] {
  const kernelFunc: KernelFunc = (args) => {
    const { x } = args.inputs as unknown as { x: TensorInfo };
    const backend = wasmInternals(args.backend)!;
    const out = backend.makeOutput(x.shape, 'float32');
    const length = x.shape.reduce((n, s) => n * s, 1);
    simdKernelsOn(backend)!.gelu(heapOffset(backend, x), heapOffset(backend, out), length);
    return out;
  };
  return registerWasmKernel(GELU_KERNEL, kernelFunc, {
    inputsToSave: ['x'],
    gradFunc: (dy, saved) => {
      const [x] = saved as [Tensor];
      const cdf = mul(add(erf(mul(x, Math.SQRT1_2)), 1), 0.5); // Φ(x)
      const pdf = mul(exp(mul(square(x), -0.5)), 1 / Math.sqrt(2 * Math.PI)); // φ(x)
      return { x: () => mul(dy as Tensor, add(cdf, mul(x, pdf))) };
    },
  });
}
