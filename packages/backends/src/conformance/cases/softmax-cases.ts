import { softmax, tensor, where } from '@tensorflow/tfjs-core';
import type { ConformanceCase } from '../conformance-case.js';
import { softmax64 } from '../float64/softmax64.js';
import { seededValues } from '../seeded-values.js';

const shape = [2, 2, 4, 6]; // [B, H, T, S]
const size = 2 * 2 * 4 * 6;
const scores = seededValues(31, size, -8, 8);
// Every third key blocked, but never a whole row: a kernel check, not a fully-masked-row check.
const keep = Uint8Array.from({ length: size }, (_, i) => (i % 3 === 1 ? 0 : 1));

function maskedSoftmaxCase(fill: number, label: string): ConformanceCase {
  return {
    name: `masked softmax, fill ${label} [${shape}]`,
    kernels: ['Select', 'Softmax'],
    tolerance: { 32: 1e-6, 16: 1e-3 },
    compute: () => softmax(where(tensor(keep, shape, 'bool'), tensor(scores, shape), fill)),
    reference: () => softmax64(scores, 6, keep, fill),
  };
}

/** Softmax over the last axis, plain and with blocked positions filled by large negative values. */
export const softmaxCases: readonly ConformanceCase[] = [
  {
    name: `softmax [${shape}]`,
    kernels: ['Softmax'],
    tolerance: { 32: 1e-6, 16: 1e-3 },
    compute: () => softmax(tensor(scores, shape)),
    reference: () => softmax64(scores, 6),
  },
  maskedSoftmaxCase(-1e9, '-1e9'),
  maskedSoftmaxCase(-3.4028234663852886e38, 'float32 min'),
  maskedSoftmaxCase(-65504, 'float16 min'),
];
