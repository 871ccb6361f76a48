import { batchedMatMulCases } from './cases/batched-matmul-cases.js';
import { einsumCase } from './cases/einsum-case.js';
import { erfGeluCases } from './cases/erf-gelu-cases.js';
import { fusedMatMulCases } from './cases/fused-matmul-case.js';
import { gatherSelectCases } from './cases/gather-select-cases.js';
import { layerNormCase } from './cases/layer-norm-case.js';
import { reductionCases } from './cases/reduction-cases.js';
import { softmaxCases } from './cases/softmax-cases.js';
import { unsortedSegmentSumCase } from './cases/unsorted-segment-sum-case.js';
import type { ConformanceCase } from './conformance-case.js';

/** Every case of the conformance suite, in the order the table prints them. */
export const CONFORMANCE_CASES: readonly ConformanceCase[] = [
  ...batchedMatMulCases,
  ...fusedMatMulCases,
  ...softmaxCases,
  layerNormCase,
  ...erfGeluCases,
  ...gatherSelectCases,
  ...reductionCases,
  unsortedSegmentSumCase,
  einsumCase,
];
