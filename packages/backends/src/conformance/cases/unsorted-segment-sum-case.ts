import { tensor, unsortedSegmentSum } from '@tensorflow/tfjs-core';
import type { ConformanceCase } from '../conformance-case.js';
import { seededValues } from '../seeded-values.js';

const [rows, width, segments] = [6, 4, 5];
const x = seededValues(91, rows * width);
const ids = Int32Array.of(0, 2, 0, 1, 2, 4); // segment 3 stays empty

/** `unsortedSegmentSum`, the gradient of embedding lookups (`gather`): needed to train on a backend. */
export const unsortedSegmentSumCase: ConformanceCase = {
  name: `unsortedSegmentSum [${rows},${width}] into ${segments} segments`,
  kernels: ['UnsortedSegmentSum'],
  tolerance: { 32: 1e-6, 16: 1e-2 },
  compute: () => unsortedSegmentSum(tensor(x, [rows, width]), tensor(ids, [rows], 'int32'), segments),
  reference: () => {
    const out = new Float64Array(segments * width);
    ids.forEach((id, r) => { for (let j = 0; j < width; j++) out[id * width + j]! += x[r * width + j] as number; });
    return out;
  },
};
