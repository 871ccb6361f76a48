import { gather, tensor, where } from '@tensorflow/tfjs-core';
import type { ConformanceCase } from '../conformance-case.js';
import { seededValues } from '../seeded-values.js';

const [vocab, width] = [10, 6];
const table = seededValues(61, vocab * width);
const ids = Int32Array.of(3, 0, 9, 9, 1, 7, 2, 5, 4, 8); // [2, 5], like input ids
const a = seededValues(62, 12);
const b = seededValues(63, 12);
const condition = Uint8Array.of(1, 0, 0, 1, 1, 1, 0, 0, 1, 0, 1, 0);

/** Embedding lookup (gather on axis 0 with int32 ids) and element-wise select. Both must be exact. */
export const gatherSelectCases: readonly ConformanceCase[] = [
  {
    name: `gather axis 0 [${vocab},${width}][2,5]`,
    kernels: ['GatherV2'],
    tolerance: { 32: 0, 16: 1e-3 },
    compute: () => gather(tensor(table, [vocab, width]), tensor(ids, [2, 5], 'int32')),
    reference: () => Float64Array.from(Array.from(ids).flatMap((id) => Array.from(table.subarray(id * width, (id + 1) * width)))),
  },
  {
    name: 'where/select [3,4]',
    kernels: ['Select'],
    tolerance: { 32: 0, 16: 1e-3 },
    compute: () => where(tensor(condition, [3, 4], 'bool'), tensor(a, [3, 4]), tensor(b, [3, 4])),
    reference: () => Float64Array.from(condition, (c, i) => (c ? (a[i] as number) : (b[i] as number))),
  },
];
