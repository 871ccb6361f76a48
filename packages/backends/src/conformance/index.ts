export type { ConformanceCase } from './conformance-case.js';
export { CONFORMANCE_CASES } from './conformance-cases.js';
export { KERNEL_CONFORMANCE_CASES } from './kernels/kernel-conformance-cases.js';
export { runConformance, type ConformanceResult } from './run-conformance.js';
export { formatConformanceTable } from './format-conformance-table.js';
export { KNOWN_KERNEL_GAPS } from './known-kernel-gaps.js';
export { seededValues } from './seeded-values.js';
export { erf64 } from '@attnkit/kernels'; // the float64 reference of the erf kernel, beside it
export { matMul64, transposeLast64 } from './float64/matmul64.js';
export { softmax64 } from './float64/softmax64.js';
