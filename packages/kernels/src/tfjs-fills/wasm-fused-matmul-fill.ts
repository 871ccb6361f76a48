import { getKernel, type KernelFunc, type TensorInfo } from '@tensorflow/tfjs-core';
import { replaceWasmKernel } from './replace-wasm-kernel.js';
import { type WasmBackendInternals, wasmInternals } from '../tfjs-internals.js';

interface FusedInputs {
  a: TensorInfo;
  b: TensorInfo;
  bias?: TensorInfo | null;
  preluActivationWeights?: TensorInfo | null;
}

/**
 * Transposed copies of matrices used as `b` with `transposeB`, keyed by the source's dataId (a
 * reshape shares the dataId, so the source's shape is kept and checked too).
 */
const transposedCopies = new WeakMap<object, { shape: string; copy: TensorInfo }>();
const watchedBackends = new WeakSet<object>();

/**
 * Frees a source's transposed copy once the backend frees the source (refCount 0). A Variable's
 * `assign` gives it a new dataId, so a stale copy is never used.
 */
function watchDisposals(backend: WasmBackendInternals): void {
  if (watchedBackends.has(backend)) return;
  watchedBackends.add(backend);
  const dispose = backend.disposeData.bind(backend);
  backend.disposeData = (dataId: object, force?: boolean): boolean => {
    const freed = dispose(dataId, force);
    const kept = transposedCopies.get(dataId);
    if (kept !== undefined && !backend.dataIdMap.has(dataId)) {
      transposedCopies.delete(dataId);
      dispose(kept.copy.dataId, true);
    }
    return freed;
  };
}

/**
 * tfjs-backend-wasm 4.22's `_FusedMatMul` returns wrong values (errors of order 1) when a bias
 * is combined with `transposeA` or `transposeB`, and when a bias is added to a batch of products
 * (`[N, m, k] × [N, k, n]`, N > 1: every row after the first gets the wrong bias); without a bias,
 * or untransposed and unbatched, it is right. This re-registers the kernel so that the transposed
 * operands are materialised with wasm's own Transpose kernel and the original kernel runs
 * untransposed, and a batched product gets its bias and activation from their own kernels.
 *
 * A matrix `b` used with `transposeB` (the PyTorch `[out, in]` weight layout of `linear`) is
 * transposed once and the copy kept until `b` is disposed, with or without a bias: XNNPACK then
 * reuses its packed weights, ~2.7× faster for `[128, 384] × [1536, 384]ᵀ`
 * (`tooling/bench/src/weight-layout-probe.ts`). The copy costs as much wasm memory as `b`.
 *
 * @returns the kernels filled (`['_FusedMatMul']`), or `[]` if wasm has no such kernel
 * @example
 * fillWasmFusedMatMul(); // after tf.setBackend('wasm')
 */
export function fillWasmFusedMatMul(): string[] {
  return replaceWasmKernel('_FusedMatMul', (kernel) => {
    const [transpose, add] = [getKernel('Transpose', 'wasm'), getKernel('Add', 'wasm')];
    if (transpose === undefined || add === undefined) return undefined;
    const kernelFunc: KernelFunc = (args) => {
      const inputs = args.inputs as unknown as FusedInputs;
      const attrs = args.attrs as { transposeA: boolean; transposeB: boolean; activation?: string; leakyreluAlpha?: number };
      const bShape = inputs.b.shape;
      const cacheB = attrs.transposeB && bShape.length === 3 && bShape[0] === 1; // one weight matrix (the op passes b as [1, N, K])
      const batches = (x: TensorInfo) => x.shape.slice(0, -2).reduce((n, d) => n * d, 1);
      const batched = inputs.bias != null && Math.max(batches(inputs.a), batches(inputs.b)) > 1;
      if (!cacheB && !batched && (inputs.bias == null || (!attrs.transposeA && !attrs.transposeB))) return kernel.kernelFunc(args);
      const temporaries: TensorInfo[] = [];
      const untransposed = (x: TensorInfo): TensorInfo => {
        const rank = x.shape.length;
        const perm = [...Array.from({ length: rank - 2 }, (_, i) => i), rank - 1, rank - 2]; // swap the last two axes
        const out = transpose.kernelFunc({ inputs: { x }, attrs: { perm }, backend: args.backend }) as TensorInfo;
        temporaries.push(out);
        return out;
      };
      const keptTransposed = (b: TensorInfo): TensorInfo => {
        const shape = b.shape.join(',');
        const kept = transposedCopies.get(b.dataId);
        if (kept !== undefined && kept.shape === shape) return kept.copy;
        if (kept !== undefined) return untransposed(b); // the same data seen through another reshape: not cached
        watchDisposals(wasmInternals(args.backend)!);
        const copy = transpose.kernelFunc({ inputs: { x: b }, attrs: { perm: [0, 2, 1] }, backend: args.backend }) as TensorInfo;
        transposedCopies.set(b.dataId, { shape, copy });
        return copy;
      };
      const backend = args.backend;
      /** The bias, then the activation, with their own kernels (for batched products, where the original adds the bias wrongly). */
      const biasThenActivate = (product: TensorInfo): TensorInfo => {
        temporaries.push(product);
        const biased = add.kernelFunc({ inputs: { a: product, b: inputs.bias as TensorInfo }, backend }) as TensorInfo;
        const activation = attrs.activation ?? 'linear';
        if (activation === 'linear') return biased;
        temporaries.push(biased);
        const run = (name: string, kernelInputs: Record<string, TensorInfo>, kernelAttrs: Record<string, unknown> = {}) => {
          const k = getKernel(name, 'wasm');
          if (k === undefined) throw new Error(`_FusedMatMul: wasm has no ${name} kernel for the fused activation '${activation}'`);
          return k.kernelFunc({ inputs: kernelInputs as never, attrs: kernelAttrs as never, backend }) as TensorInfo;
        };
        const names: Record<string, string> = { relu: 'Relu', relu6: 'Relu6', elu: 'Elu', sigmoid: 'Sigmoid' };
        if (activation === 'leakyrelu') return run('LeakyRelu', { x: biased }, { alpha: attrs.leakyreluAlpha ?? 0.2 });
        if (activation === 'prelu') return run('Prelu', { x: biased, alpha: inputs.preluActivationWeights as TensorInfo });
        const name = names[activation];
        if (name === undefined) throw new Error(`_FusedMatMul: unknown fused activation '${activation}'`);
        return run(name, { x: biased });
      };
      try {
        const a = attrs.transposeA ? untransposed(inputs.a) : inputs.a;
        const b = cacheB ? keptTransposed(inputs.b) : attrs.transposeB ? untransposed(inputs.b) : inputs.b;
        if (batched) return biasThenActivate(kernel.kernelFunc({ ...args, inputs: { a, b }, attrs: { ...args.attrs, transposeA: false, transposeB: false, activation: 'linear' } }) as TensorInfo);
        return kernel.kernelFunc({ ...args, inputs: { ...args.inputs, a, b }, attrs: { ...args.attrs, transposeA: false, transposeB: false } });
      } finally {
        for (const t of temporaries) wasmInternals(args.backend)!.disposeData(t.dataId);
      }
    };
    return kernelFunc;
  });
}
