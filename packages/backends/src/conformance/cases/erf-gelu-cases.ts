import { add, erf, mul, tensor, tanh } from '@tensorflow/tfjs-core';
import type { ConformanceCase } from '../conformance-case.js';
import { erf64 } from '@attnkit/kernels';
import { seededValues } from '../seeded-values.js';

const x = seededValues(51, 256, -5, 5);

/** erf, exact (erf-based) GELU as BERT uses it, and tanh as the pooler uses it. */
export const erfGeluCases: readonly ConformanceCase[] = [
  {
    name: 'erf [256] in [-5, 5]',
    kernels: ['Erf'],
    tolerance: { 32: 1e-6, 16: 1e-3 },
    compute: () => erf(tensor(x)),
    reference: () => Float64Array.from(x, erf64),
  },
  {
    name: 'gelu (erf) [256] in [-5, 5]',
    kernels: ['Erf'],
    tolerance: { 32: 1e-6, 16: 1e-3 },
    compute: () => {
      const input = tensor(x);
      return mul(mul(input, 0.5), add(erf(mul(input, Math.SQRT1_2)), 1));
    },
    reference: () => Float64Array.from(x, (v) => 0.5 * v * (1 + erf64(v * Math.SQRT1_2))),
  },
  {
    name: 'tanh [256] in [-5, 5]',
    kernels: ['Tanh'],
    tolerance: { 32: 1e-6, 16: 1e-3 },
    compute: () => tanh(tensor(x)),
    reference: () => Float64Array.from(x, Math.tanh),
  },
];
