import { add, moments, mul, rsqrt, sub, tensor } from '@tensorflow/tfjs-core';
import type { ConformanceCase } from '../conformance-case.js';
import { seededValues } from '../seeded-values.js';

const [rows, width, eps] = [10, 16, 1e-12]; // [B·T, E]; eps as in BERT
const x = seededValues(41, rows * width, -3, 3);
const gamma = seededValues(42, width, 0.5, 1.5);
const beta = seededValues(43, width, -0.5, 0.5);

function layerNorm64(): Float64Array {
  const out = new Float64Array(rows * width);
  for (let r = 0; r < rows; r++) {
    const row = Array.from(x.subarray(r * width, (r + 1) * width));
    const mean = row.reduce((s, v) => s + v, 0) / width;
    const variance = row.reduce((s, v) => s + (v - mean) ** 2, 0) / width;
    row.forEach((v, j) => {
      out[r * width + j] = ((v - mean) / Math.sqrt(variance + eps)) * (gamma[j] as number) + (beta[j] as number);
    });
  }
  return out;
}

/** Layer normalisation over the last axis (biased variance, eps 1e-12), built from moments and rsqrt. */
export const layerNormCase: ConformanceCase = {
  name: `layer norm eps 1e-12 [${rows},${width}]`,
  kernels: ['Mean', 'Rsqrt'],
  tolerance: { 32: 1e-5, 16: 1e-2 },
  compute: () => {
    const input = tensor(x, [rows, width]);
    const { mean, variance } = moments(input, -1, true);
    const normalised = mul(sub(input, mean), rsqrt(add(variance, eps)));
    return add(mul(normalised, tensor(gamma)), tensor(beta));
  },
  reference: layerNorm64,
};
