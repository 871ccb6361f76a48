import { getKernel, type KernelFunc, type TensorInfo } from '@tensorflow/tfjs-core';
import { replaceWasmKernel } from './replace-wasm-kernel.js';
import type { WasmBackendInternals } from './wasm-backend-internals.js';

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
 * is combined with `transposeA` or `transposeB`; without a bias, or untransposed, it is right.
 * This re-registers the kernel so that, in exactly that case, the transposed operands are
 * materialised with wasm's own Transpose kernel and the original kernel runs untransposed.
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
    const transpose = getKernel('Transpose', 'wasm');
    if (transpose === undefined) return undefined;
    const kernelFunc: KernelFunc = (args) => {
      const inputs = args.inputs as unknown as FusedInputs;
      const attrs = args.attrs as { transposeA: boolean; transposeB: boolean };
      const bShape = inputs.b.shape;
      const cacheB = attrs.transposeB && bShape.length === 3 && bShape[0] === 1; // one weight matrix (the op passes b as [1, N, K])
      if (!cacheB && (inputs.bias == null || (!attrs.transposeA && !attrs.transposeB))) return kernel.kernelFunc(args);
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
        watchDisposals(args.backend as unknown as WasmBackendInternals);
        const copy = transpose.kernelFunc({ inputs: { x: b }, attrs: { perm: [0, 2, 1] }, backend: args.backend }) as TensorInfo;
        transposedCopies.set(b.dataId, { shape, copy });
        return copy;
      };
      try {
        return kernel.kernelFunc({
          ...args,
          inputs: { ...args.inputs, a: attrs.transposeA ? untransposed(inputs.a) : inputs.a, b: cacheB ? keptTransposed(inputs.b) : attrs.transposeB ? untransposed(inputs.b) : inputs.b },
          attrs: { ...args.attrs, transposeA: false, transposeB: false },
        });
      } finally {
        for (const t of temporaries) (args.backend as WasmBackendInternals).disposeData(t.dataId);
      }
    };
    return kernelFunc;
  });
}
