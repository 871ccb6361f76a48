import { checkInteger, checkObject } from '@attnkit/errors';
import { checkFlatArray } from './check-flat-array.js';
import type { Int8GemmShape } from './int8-gemm-kernel.js';

/**
 * The exact integer product `A·Bᵀ` in the plainest JavaScript, the oracle the kernels are tested
 * against: A int8 `[N, K]` row-major, B int8 `[M, K]` (one row per output column) → int32 `[N, M]`.
 * Sums are exact (doubles hold every value up to 2⁵³; an int32 result holds them for K ≤ 133 144).
 * Pair it with `dequantizeAccumulators` for the float32 output.
 *
 * @example
 * int8MatMulReference(Int8Array.of(1, 2), Int8Array.of(3, 4, -1, 1), { rows: 1, cols: 2, depth: 2 }); // Int32Array [11, 1]
 */
export function int8MatMulReference(a: Int8Array, b: Int8Array, shape: Int8GemmShape): Int32Array {
  const caller = 'int8MatMulReference';
  checkObject(shape, { caller, argument: 'shape', expected: 'an object { rows, cols, depth }' });
  const [rows, cols, depth] = (['rows', 'cols', 'depth'] as const).map((key) => checkInteger(shape[key], { caller, argument: `shape.${key}`, min: 0 })) as [number, number, number];
  checkFlatArray(a, 'Int8Array', rows * depth, caller, 'a');
  checkFlatArray(b, 'Int8Array', cols * depth, caller, 'b');
  const out = new Int32Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      let sum = 0;
      for (let p = 0; p < depth; p++) sum += (a[i * depth + p] as number) * (b[j * depth + p] as number);
      out[i * cols + j] = sum;
    }
  }
  return out;
}
