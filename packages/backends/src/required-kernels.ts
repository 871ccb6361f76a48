import { getKernel } from '@tensorflow/tfjs-core';

/**
 * The tfjs kernels attnkit's blocks are built from. A backend missing one of them either gets it
 * filled by its adapter or has it listed in its capability report (and the blocks avoid it).
 */
export const REQUIRED_KERNELS = [
  'BatchMatMul',
  '_FusedMatMul',
  'Softmax',
  'Exp',
  'Erf',
  'Tanh',
  'Sqrt',
  'Rsqrt',
  'GatherV2',
  'Select',
  'Sum',
  'Max',
  'Mean',
  'Transpose',
  'Reshape',
  'Einsum',
] as const;

/**
 * Lists the {@link REQUIRED_KERNELS} that `backend` has no kernel for.
 *
 * @example
 * missingKernels('wasm'); // ['Einsum']
 */
export function missingKernels(backend: string): string[] {
  return REQUIRED_KERNELS.filter((name) => getKernel(name, backend) === undefined);
}
