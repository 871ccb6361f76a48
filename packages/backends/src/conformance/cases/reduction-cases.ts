import { max, mean, sum, tensor } from '@tensorflow/tfjs-core';
import type { ConformanceCase } from '../conformance-case.js';
import { seededValues } from '../seeded-values.js';

const [d0, d1, d2] = [3, 4, 50];
const x = seededValues(71, d0 * d1 * d2, -2, 2);
const at = (i: number, j: number, k: number): number => x[(i * d1 + j) * d2 + k] as number;

function reduce(axis: 1 | 2, combine: (values: number[]) => number): Float64Array {
  const out: number[] = [];
  for (let i = 0; i < d0; i++) {
    if (axis === 2) for (let j = 0; j < d1; j++) out.push(combine(Array.from({ length: d2 }, (_, k) => at(i, j, k))));
    else for (let k = 0; k < d2; k++) out.push(combine(Array.from({ length: d1 }, (_, j) => at(i, j, k))));
  }
  return Float64Array.from(out);
}

/** Sum, max and mean reductions on inner and middle axes of `[3, 4, 50]`. */
export const reductionCases: readonly ConformanceCase[] = [
  {
    name: `sum axis -1 [${d0},${d1},${d2}]`,
    kernels: ['Sum'],
    tolerance: { 32: 1e-5, 16: 1e-1 },
    compute: () => sum(tensor(x, [d0, d1, d2]), -1),
    reference: () => reduce(2, (v) => v.reduce((s, e) => s + e, 0)),
  },
  {
    name: `max axis 1 [${d0},${d1},${d2}]`,
    kernels: ['Max'],
    tolerance: { 32: 0, 16: 1e-3 },
    compute: () => max(tensor(x, [d0, d1, d2]), 1),
    reference: () => reduce(1, (v) => Math.max(...v)),
  },
  {
    name: `mean axis -1 [${d0},${d1},${d2}]`,
    kernels: ['Mean'],
    tolerance: { 32: 1e-6, 16: 1e-2 },
    compute: () => mean(tensor(x, [d0, d1, d2]), -1),
    reference: () => reduce(2, (v) => v.reduce((s, e) => s + e, 0) / v.length),
  },
];
