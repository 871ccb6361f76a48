import { describe, expect, it } from 'vitest';
import { seededValues } from '../seeded-values.js';
import { dequantizeAccumulators, int8MatMulReference, quantizeRows, quantizeWeightPerChannel } from '@attnkit/kernels';
import { int8MatMul64 } from './int8-mat-mul64.js';

describe('int8MatMul64', () => {
  it('dequantizes the exact integer product in float64', () => {
    // x row [0.5, -1] -> q [64, -127], scale 1/127; weight [[1, 2]] ([M, K]) -> q [64, 127], scale 2/127
    const weight = quantizeWeightPerChannel({ values: Float32Array.of(1, 2), inFeatures: 2, outFeatures: 1 });
    const { values } = int8MatMul64(Float32Array.of(0.5, -1), 1, weight, Float32Array.of(0.25), 127);
    const scales = [Math.fround(1 / 127), Math.fround(2 / 127)] as const;
    expect(values[0]).toBe((64 * 64 - 127 * 127) * scales[0] * scales[1] + 0.25);
  });

  it('bounds the package float32 epilogue (dequantizeAccumulators) on the same integers, tightly', () => {
    const [rows, depth, cols] = [9, 40, 11];
    const x = seededValues(1, rows * depth);
    const weight = quantizeWeightPerChannel({ values: seededValues(2, cols * depth, -0.1, 0.1), inFeatures: depth, outFeatures: cols });
    const bias = seededValues(3, cols);
    for (const levels of [127, 63] as const) {
      const { values, float32Bound } = int8MatMul64(x, rows, weight, bias, levels);
      const q = quantizeRows(x, rows, depth, levels, 'test', 'x');
      const float32 = dequantizeAccumulators(int8MatMulReference(q.values, weight.values, { rows, cols, depth }), q.scales, weight.scales, bias);
      const error = Math.max(...float32.map((v, i) => Math.abs(v - (values[i] as number))));
      expect(error).toBeLessThanOrEqual(float32Bound);
      expect(error).toBeGreaterThan(0); // float32 really differs, and the bound is not vacuous:
      expect(float32Bound).toBeLessThan(4 * 2 ** -24 * Math.max(...values.map(Math.abs)));
    }
  });
});
