/**
 * Batched matrix product in float64: `a: [batch, m, k] × b: [batch, k, n] → [batch, m, n]`, both
 * row-major and already laid out untransposed. A batch of 1 broadcasts.
 *
 * @example
 * matMul64(Float32Array.of(1, 2), Float32Array.of(3, 4), 1, 1, 2, 1); // Float64Array [11]
 */
export function matMul64(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  batch: number,
  m: number,
  k: number,
  n: number,
  broadcastB = false,
): Float64Array {
  const out = new Float64Array(batch * m * n);
  for (let p = 0; p < batch; p++) {
    const bOffset = broadcastB ? 0 : p * k * n;
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        let sum = 0;
        for (let r = 0; r < k; r++) sum += (a[p * m * k + i * k + r] as number) * (b[bOffset + r * n + j] as number);
        out[p * m * n + i * n + j] = sum;
      }
    }
  }
  return out;
}

/**
 * Swaps the last two axes of a row-major `[batch, rows, cols]` array, returning `[batch, cols, rows]`.
 *
 * @example
 * transposeLast64(Float32Array.of(1, 2, 3, 4, 5, 6), 1, 2, 3); // [1, 4, 2, 5, 3, 6]
 */
export function transposeLast64(x: ArrayLike<number>, batch: number, rows: number, cols: number): Float64Array {
  const out = new Float64Array(batch * rows * cols);
  for (let p = 0; p < batch; p++) {
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < cols; j++) out[p * rows * cols + j * rows + i] = x[p * rows * cols + i * cols + j] as number;
    }
  }
  return out;
}
