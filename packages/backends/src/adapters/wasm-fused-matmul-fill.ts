import { getKernel, registerKernel, unregisterKernel, type KernelConfig, type KernelFunc, type TensorInfo } from '@tensorflow/tfjs-core';

interface FusedInputs {
  a: TensorInfo;
  b: TensorInfo;
  bias?: TensorInfo | null;
  preluActivationWeights?: TensorInfo | null;
}
interface BackendWithDispose {
  disposeData(dataId: object): boolean;
}

let original: KernelConfig | undefined;

/**
 * tfjs-backend-wasm 4.22's `_FusedMatMul` returns wrong values (errors of order 1) when a bias
 * is combined with `transposeA` or `transposeB`; without a bias, or untransposed, it is right.
 * This re-registers the kernel so that, in exactly that case, the transposed operands are
 * materialised with wasm's own Transpose kernel and the original kernel runs untransposed.
 *
 * @returns the kernels filled (`['_FusedMatMul']`), or `[]` if wasm has no such kernel
 * @example
 * fillWasmFusedMatMul(); // after tf.setBackend('wasm')
 */
export function fillWasmFusedMatMul(): string[] {
  if (original !== undefined) return ['_FusedMatMul'];
  const kernel = getKernel('_FusedMatMul', 'wasm');
  const transpose = getKernel('Transpose', 'wasm');
  if (kernel === undefined || transpose === undefined) return [];
  original = kernel;
  const kernelFunc: KernelFunc = (args) => {
    const inputs = args.inputs as unknown as FusedInputs;
    const attrs = args.attrs as { transposeA: boolean; transposeB: boolean };
    if (inputs.bias == null || (!attrs.transposeA && !attrs.transposeB)) return kernel.kernelFunc(args);
    const temporaries: TensorInfo[] = [];
    const untransposed = (x: TensorInfo): TensorInfo => {
      const rank = x.shape.length;
      const perm = [...Array.from({ length: rank - 2 }, (_, i) => i), rank - 1, rank - 2]; // swap the last two axes
      const out = transpose.kernelFunc({ inputs: { x }, attrs: { perm }, backend: args.backend }) as TensorInfo;
      temporaries.push(out);
      return out;
    };
    try {
      return kernel.kernelFunc({
        ...args,
        inputs: { ...args.inputs, a: attrs.transposeA ? untransposed(inputs.a) : inputs.a, b: attrs.transposeB ? untransposed(inputs.b) : inputs.b },
        attrs: { ...args.attrs, transposeA: false, transposeB: false },
      });
    } finally {
      for (const t of temporaries) (args.backend as BackendWithDispose).disposeData(t.dataId);
    }
  };
  unregisterKernel('_FusedMatMul', 'wasm');
  registerKernel({ ...kernel, kernelFunc });
  return ['_FusedMatMul'];
}

/** The kernel tfjs-backend-wasm registered, before the fill (for the test that pins the defect). */
export function originalWasmFusedMatMul(): KernelConfig | undefined {
  return original;
}
