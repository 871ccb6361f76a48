import { fused, tensor } from '@tensorflow/tfjs-core';
import type { ConformanceCase } from '../conformance-case.js';
import { matMul64 } from '../float64/matmul64.js';
import { seededValues } from '../seeded-values.js';

const [m, k, n] = [9, 16, 12];
const x = seededValues(21, m * k);
const w = seededValues(22, k * n);
const bias = seededValues(23, n);

/** `tf.fused.matMul` with a bias, as every dense projection uses it: `[9, 16] × [16, 12] + [12]`. */
export const fusedMatMulCase: ConformanceCase = {
  name: `fused.matMul + bias [${m},${k}]x[${k},${n}]`,
  kernels: ['_FusedMatMul'],
  tolerance: { 32: 1e-5, 16: 1e-2 },
  compute: () => fused.matMul({ a: tensor(x, [m, k]), b: tensor(w, [k, n]), bias: tensor(bias, [n]) }),
  reference: () => matMul64(x, w, 1, m, k, n).map((v, i) => v + (bias[i % n] as number)),
};
