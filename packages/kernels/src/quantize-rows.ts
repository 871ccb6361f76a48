import { InvalidArgumentError } from '@attnkit/errors';

/** Rows quantized by {@link quantizeRows}: `values` int8 `[rows, depth]`, `scales` float32 `[rows]`. */
export interface QuantizedRows {
  readonly values: Int8Array;
  readonly scales: Float32Array;
}

/**
 * Symmetric per-row int8 quantization: `scale = f32(max|row| / levels)` and
 * `q = clamp(roundHalfAwayFromZero(x / scale), -levels, levels)`, so `x ≈ q · scale`. An all-zero
 * row gets scale 0 and zeros. Every value must be finite: NaN or ±Infinity would make the whole
 * row's scale meaningless, so it is refused with a typed error naming the first one (the scan is
 * the max|x| pass the scale needs anyway, so it costs nothing).
 * Shapes: `values [rows, depth]` float32 → int8 `[rows, depth]` and scales `[rows]`.
 *
 * @example
 * quantizeRows(Float32Array.of(0.5, -1, 0.25), 1, 3, 127, 'f', 'x'); // values [64, -127, 32], scales [1/127]
 */
export function quantizeRows(values: ArrayLike<number>, rows: number, depth: number, levels: 127 | 63, caller: string, argument: string): QuantizedRows {
  const out = new Int8Array(rows * depth);
  const scales = new Float32Array(rows);
  for (let i = 0; i < rows; i++) {
    const start = i * depth;
    let max = 0;
    for (let p = start; p < start + depth; p++) {
      const x = values[p] as number;
      if (!Number.isFinite(x)) {
        throw new InvalidArgumentError({ caller, argument, expected: 'finite values only (int8 quantization scales each row by its largest magnitude)', received: `${x} at flat index ${p}`, hint: 'Replace or mask the non-finite values first.' });
      }
      const magnitude = Math.abs(x);
      if (magnitude > max) max = magnitude;
    }
    const scale = Math.fround(max / levels);
    scales[i] = scale;
    if (scale === 0) continue; // a zero row (or one below float32's range) stays 0
    for (let p = start; p < start + depth; p++) {
      const x = (values[p] as number) / scale;
      const q = Math.sign(x) * Math.round(Math.abs(x));
      out[p] = q > levels ? levels : q < -levels ? -levels : q;
    }
  }
  return { values: out, scales };
}
