import { describe, expect, it } from 'vitest';
import { dequantizeAccumulators } from './dequantize-accumulators.js';

describe('dequantizeAccumulators', () => {
  it('scales by rowScale then colScale and adds the bias, rounding to float32 at each step', () => {
    const out = dequantizeAccumulators(Int32Array.of(254, -3, 16_777_217, 0), Float32Array.of(0.5, 0.1), Float32Array.of(0.01, 3), Float32Array.of(1, -2));
    const f = Math.fround;
    expect(Array.from(out)).toEqual([f(f(f(254 * f(0.5)) * f(0.01)) + 1), f(f(-3 * f(0.5)) * 3 - 2), f(f(f(16_777_216 * f(0.1)) * f(0.01)) + 1), f(-2)]);
    expect(f(16_777_217)).toBe(16_777_216); // an accumulator past 2²⁴ is rounded first, as the kernels' f32x4.convert does
  });

  it('leaves the bias out when none is given and handles empty inputs', () => {
    expect(Array.from(dequantizeAccumulators(Int32Array.of(4), Float32Array.of(0.25), Float32Array.of(2)))).toEqual([2]);
    expect(dequantizeAccumulators(new Int32Array(0), new Float32Array(0), new Float32Array(3)).length).toBe(0);
  });
});
