import { int8MatMulReference, type Int8Weight, quantizeRows, type Reference64 } from '@attnkit/kernels';

const UNIT = 2 ** -24; // float32's unit roundoff (round to nearest)

/**
 * What `int8MatMul` computes, in float64 after the integers: each row of `x` quantized by the
 * package's `quantizeRows` (`levels` 127, or 63 for the relaxed-SIMD kernel), the exact int32
 * product with the weight's int8 values (`int8MatMulReference`), then `acc · rowScale · colScale + bias`
 * in float64 with the float32 scales.
 *
 * The bound: a kernel's float32 epilogue rounds `f32(acc)` (exact: |acc| ≤ K · 127² < 2²⁴ here, or
 * one more rounding beyond), two products and the sum with the bias, so each output is within
 * `γ₂ · |acc · rowScale · colScale| + u · |out|` (u = 2⁻²⁴, γₙ = nu / (1 − nu)) of the float64 value;
 * the bound is the largest over the output. The integers themselves must match exactly: a single
 * quantization step off costs `rowScale · colScale`, hundreds of times the bound.
 *
 * Shapes: `x [N, K]` float32, `weight` int8 `[M, K]` + `[M]` scales, `bias [M]` → `[N, M]`.
 *
 * @example
 * const { values, float32Bound } = int8MatMul64(x, 14, quantizeWeightPerChannel(w), bias, 127);
 */
export function int8MatMul64(x: Float32Array, rows: number, weight: Int8Weight, bias: Float32Array | undefined, levels: 127 | 63): Reference64 {
  const { inFeatures: depth, outFeatures: cols, values: weightValues, scales: colScales } = weight; // read once: a frozen weight's arrays are copies
  const { values: quantized, scales: rowScales } = quantizeRows(x, rows, depth, levels, 'int8MatMul64', 'x');
  const accumulators = int8MatMulReference(quantized, weightValues, { rows, cols, depth }); // [N, K]·[M, K]ᵀ -> int32 [N, M]
  const roundings = depth * levels * 127 < 2 ** 24 ? 2 : 3; // f32(acc) is exact below 2²⁴
  const gamma = (roundings * UNIT) / (1 - roundings * UNIT);
  const values = new Float64Array(rows * cols);
  let float32Bound = 0;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const scaled = (accumulators[i * cols + j] as number) * (rowScales[i] as number) * (colScales[j] as number);
      const out = scaled + (bias === undefined ? 0 : (bias[j] as number));
      values[i * cols + j] = out;
      float32Bound = Math.max(float32Bound, gamma * Math.abs(scaled) + UNIT * Math.abs(out));
    }
  }
  return { values, float32Bound };
}
