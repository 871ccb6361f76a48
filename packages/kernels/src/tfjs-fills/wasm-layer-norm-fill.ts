import { add, mean, mul, rsqrt, square, sub, sum, type KernelFunc, type Tensor, type TensorInfo } from '@tensorflow/tfjs-core';
import { registerWasmKernel } from './register-wasm-kernel.js';
import { simdKernelsOn } from './tfjs-fills-on.js';
import { heapOffset, wasmInternals } from '../tfjs-internals.js';

/**
 * The name of attnkit's fused layer-normalisation kernel: inputs `x [..., E]`, `gamma [E]`,
 * `beta [E]` (float32), attribute `epsilon`; output `[..., E]`, as `nn.LayerNorm` (biased variance,
 * epsilon inside the square root). Registered on wasm by `fillWasmKernels()` (`useBackend('wasm')`); ops ask
 * `kernelRoute('layerNorm')` and compose the same from tfjs ops elsewhere.
 *
 * @example
 * engine().runKernel(LAYER_NORM_KERNEL, { x, gamma, beta }, { epsilon: 1e-12 });
 */
export const LAYER_NORM_KERNEL = 'AttnkitLayerNorm';

/**
 * Registers {@link LAYER_NORM_KERNEL} on wasm: one SIMD pass per row for the mean, one for the
 * variance, one for the output (`csrc/tfjs-fills.c`), where the composite takes nine tfjs
 * ops. Its gradient (for `x`, `gamma` and `beta`) is registered with it. Where WebAssembly SIMD is
 * missing nothing is registered, and the composite runs.
 *
 * @returns `[LAYER_NORM_KERNEL]`, or `[]` when SIMD kernels cannot run
 * @example
 * fillWasmLayerNorm(); // after tf.setBackend('wasm')
 */
export function fillWasmLayerNorm(): string[] {
  const kernelFunc: KernelFunc = (args) => {
    const { x, gamma, beta } = args.inputs as unknown as { x: TensorInfo; gamma: TensorInfo; beta: TensorInfo };
    const { epsilon } = args.attrs as unknown as { epsilon: number };
    const backend = wasmInternals(args.backend)!;
    const width = x.shape.at(-1) ?? 1;
    const rows = width === 0 ? 0 : x.shape.reduce((n, s) => n * s, 1) / width;
    const out = backend.makeOutput(x.shape, 'float32');
    const at = (t: TensorInfo): number => heapOffset(backend, t);
    simdKernelsOn(backend)!.layerNorm(at(x), at(gamma), at(beta), at(out), rows, width, epsilon);
    return out;
  };
  return registerWasmKernel(LAYER_NORM_KERNEL, kernelFunc, {
    inputsToSave: ['x', 'gamma'],
    gradFunc: (dy, saved, attrs) => {
      const [x, gamma] = saved as [Tensor, Tensor];
      const { epsilon } = attrs as unknown as { epsilon: number };
      const dOut = dy as Tensor;
      const rowAxes = x.shape.slice(0, -1).map((_, a) => a); // every axis but the last
      const centred = sub(x, mean(x, -1, true));
      const inverse = rsqrt(add(mean(square(centred), -1, true), epsilon)); // 1/σ per row
      const normalised = mul(centred, inverse); // x̂
      const dNormalised = mul(dOut, gamma);
      // dx = (dx̂ − mean(dx̂) − x̂ · mean(dx̂ · x̂)) / σ
      const dx = mul(sub(sub(dNormalised, mean(dNormalised, -1, true)), mul(normalised, mean(mul(dNormalised, normalised), -1, true))), inverse);
      return { x: () => dx, gamma: () => sum(mul(dOut, normalised), rowAxes), beta: () => sum(dOut, rowAxes) };
    },
  });
}
