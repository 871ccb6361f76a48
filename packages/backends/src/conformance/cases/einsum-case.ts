import { einsum, tensor } from '@tensorflow/tfjs-core';
import type { ConformanceCase } from '../conformance-case.js';
import { matMul64, transposeLast64 } from '../float64/matmul64.js';
import { seededValues } from '../seeded-values.js';

const q = seededValues(81, 2 * 3 * 4 * 5);
const k = seededValues(82, 2 * 3 * 6 * 5);

/**
 * `einsum('bhtd,bhsd->bhts')`, the attention scores of labml's seq-first layout. Here to reveal the gap: tfjs-backend-wasm has
 * no Einsum kernel, so attnkit blocks build scores from matMul and transposes instead.
 */
export const einsumCase: ConformanceCase = {
  name: "einsum 'bhtd,bhsd->bhts' [2,3,4,5]x[2,3,6,5]",
  kernels: ['Einsum'],
  tolerance: { 32: 1e-5, 16: 1e-2 },
  compute: () => einsum('bhtd,bhsd->bhts', tensor(q, [2, 3, 4, 5]), tensor(k, [2, 3, 6, 5])),
  reference: () => matMul64(q, transposeLast64(k, 6, 6, 5), 6, 4, 5, 6),
};
