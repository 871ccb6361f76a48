import type { TensorData } from '@attnkit/nn';

/**
 * `[rows, columns]` values as `[columns, rows]` (float32) — how GPT-2's `Conv1D` weights, stored
 * `[in, out]`, become `Linear`'s `[out, in]` and back.
 *
 * @example
 * transposeMatrix({ shape: [2, 3], values: new Float32Array([1, 2, 3, 4, 5, 6]) }); // { shape: [3, 2], values: [1, 4, 2, 5, 3, 6] }
 */
export function transposeMatrix({ shape, values }: TensorData): TensorData {
  const [rows = 0, columns = 0] = shape;
  const out = new Float32Array(values.length);
  for (let r = 0; r < rows; r++) for (let c = 0; c < columns; c++) out[c * rows + r] = values[r * columns + c] as number;
  return { shape: [columns, rows], values: out };
}
