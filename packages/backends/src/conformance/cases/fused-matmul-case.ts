import { fused, tensor } from '@tensorflow/tfjs-core';
import type { ConformanceCase } from '../conformance-case.js';
import { matMul64, transposeLast64 } from '../float64/matmul64.js';
import { seededValues } from '../seeded-values.js';

const [m, k, n] = [9, 16, 12];
const x = seededValues(21, m * k);
const w = seededValues(22, k * n);
const bias = seededValues(23, n);
const expected = (): Float64Array => matMul64(x, w, 1, m, k, n).map((v, i) => v + (bias[i % n] as number));

function fusedCase(transposeA: boolean, transposeB: boolean): ConformanceCase {
  const a = transposeA ? Float32Array.from(transposeLast64(x, 1, m, k)) : x; // stored [k, m] when transposed
  const b = transposeB ? Float32Array.from(transposeLast64(w, 1, k, n)) : w; // stored [n, k] when transposed
  const label = [transposeA ? 'transposeA' : '', transposeB ? 'transposeB' : ''].filter(Boolean).join(' ');
  return {
    name: `fused.matMul ${label}${label ? ' ' : ''}+ bias [${m},${k}]x[${k},${n}]`,
    kernels: ['_FusedMatMul'],
    tolerance: { 32: 1e-5, 16: 1e-2 },
    compute: () =>
      fused.matMul({ a: tensor(a, transposeA ? [k, m] : [m, k]), b: tensor(b, transposeB ? [n, k] : [k, n]), bias: tensor(bias, [n]), transposeA, transposeB }),
    reference: expected,
  };
}

/**
 * `tf.fused.matMul` with a bias, as dense projections use it, untransposed and with each
 * transpose (`nn.Linear` weights are `[out, in]`, so projections multiply by a transposed B).
 */
export const fusedMatMulCases: readonly ConformanceCase[] = [fusedCase(false, false), fusedCase(false, true), fusedCase(true, false)];
