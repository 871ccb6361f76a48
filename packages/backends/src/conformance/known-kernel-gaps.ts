import type { BackendName } from '../backend-name.js';

/**
 * Kernels tfjs 4.22 lacks per backend, as the conformance suite finds them. attnkit blocks never
 * use these kernels (scores are built from matMul and transposes instead of einsum). The suite's
 * own tests fail if a backend loses another kernel or gains one of these.
 */
export const KNOWN_KERNEL_GAPS: Readonly<Record<BackendName, readonly string[]>> = {
  cpu: [],
  wasm: ['Einsum'],
  webgl: [],
  webgpu: [],
};
