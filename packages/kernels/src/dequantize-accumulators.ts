import { checkFlatArray } from './check-flat-array.js';

/**
 * The float32 epilogue of every int8 kernel, in plain JavaScript:
 * `out[i, j] = f32(f32(f32(acc[i, j]) · rowScales[i]) · colScales[j]) + bias[j]`, each step rounded
 * to float32 in that order, so a kernel's output can be compared bit for bit.
 * Shapes: `accumulators [N, M]`, `rowScales [N]`, `colScales [M]`, `bias [M]` → `[N, M]`.
 *
 * @example
 * dequantizeAccumulators(Int32Array.of(254), Float32Array.of(0.5), Float32Array.of(0.01)); // Float32Array [1.27]
 */
export function dequantizeAccumulators(accumulators: Int32Array, rowScales: Float32Array, colScales: Float32Array, bias?: Float32Array): Float32Array {
  const caller = 'dequantizeAccumulators';
  const rows = checkFlatArray(rowScales, 'Float32Array', 0, caller, 'rowScales').length;
  const cols = checkFlatArray(colScales, 'Float32Array', 0, caller, 'colScales').length;
  checkFlatArray(accumulators, 'Int32Array', rows * cols, caller, 'accumulators');
  if (bias !== undefined) checkFlatArray(bias, 'Float32Array', cols, caller, 'bias');
  const out = new Float32Array(rows * cols);
  const round = Math.fround;
  for (let i = 0; i < rows; i++) {
    const rowScale = rowScales[i] as number;
    for (let j = 0; j < cols; j++) {
      const scaled = round(round(round(accumulators[i * cols + j] as number) * rowScale) * (colScales[j] as number));
      out[i * cols + j] = bias === undefined ? scaled : scaled + (bias[j] as number); // the store rounds the sum to float32
    }
  }
  return out;
}
