import { parseBackendName } from './backend-name.js';
import { getKernel } from '@tensorflow/tfjs-core';

/**
 * The tfjs kernels attnkit's blocks are built from (`UnsortedSegmentSum` is the gradient of
 * embedding lookups, needed to train). A backend missing one either gets it filled by its
 * adapter or has it listed in its capability report (and the blocks avoid it).
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
  'UnsortedSegmentSum',
  'Einsum',
] as const;

/**
 * Lists the {@link REQUIRED_KERNELS} that `backend` has no kernel for.
 *
 * @example
 * missingKernels('wasm'); // ['Einsum']
 */
export function missingKernels(backend: string): string[] {
  const name = parseBackendName(backend); // an UnknownBackendError for anything else
  return REQUIRED_KERNELS.filter((kernel) => getKernel(kernel, name) === undefined);
}
