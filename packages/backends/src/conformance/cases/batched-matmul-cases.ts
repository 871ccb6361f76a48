import { matMul, tensor } from '@tensorflow/tfjs-core';
import type { ConformanceCase } from '../conformance-case.js';
import { matMul64, transposeLast64 } from '../float64/matmul64.js';
import { seededValues } from '../seeded-values.js';

const [batch, m, k, n] = [6, 4, 5, 7]; // batch 6 = [2, 3] (B, H)

function matMulCase(transposeA: boolean, transposeB: boolean, broadcast: boolean): ConformanceCase {
  const a = seededValues(11, batch * m * k);
  const b = seededValues(12, (broadcast ? 1 : batch) * k * n);
  const aShape = transposeA ? [2, 3, k, m] : [2, 3, m, k];
  const bLead = broadcast ? [1, 1] : [2, 3];
  const bShape = transposeB ? [...bLead, n, k] : [...bLead, k, n];
  const label = [transposeA ? 'transposeA' : '', transposeB ? 'transposeB' : '', broadcast ? 'broadcast' : '']
    .filter(Boolean)
    .join(' ');
  return {
    name: `matMul ${label} [${aShape}]x[${bShape}]`.replace('  ', ' '),
    kernels: ['BatchMatMul'],
    tolerance: { 32: 1e-5, 16: 1e-2 },
    compute: () => matMul(tensor(a, aShape), tensor(b, bShape), transposeA, transposeB),
    reference: () => {
      const bBatch = broadcast ? 1 : batch;
      const aPlain = transposeA ? transposeLast64(a, batch, k, m) : a;
      const bPlain = transposeB ? transposeLast64(b, bBatch, n, k) : b;
      return matMul64(aPlain, bPlain, batch, m, k, n, broadcast);
    },
  };
}

/** Batched matMul in every transpose combination the attention blocks use, plus batch broadcasting. */
export const batchedMatMulCases: readonly ConformanceCase[] = [
  matMulCase(false, false, false),
  matMulCase(false, true, false),
  matMulCase(true, false, false),
  matMulCase(true, true, false),
  matMulCase(false, false, true),
];
