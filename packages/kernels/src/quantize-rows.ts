import { InvalidArgumentError, checkInteger, describeValue, messageText } from '@attnkit/errors';

/** Rows quantized by {@link quantizeRows}: `values` int8 `[rows, depth]`, `scales` float32 `[rows]`. */
export interface QuantizedRows {
  readonly values: Int8Array;
  readonly scales: Float32Array;
}

/**
 * Symmetric per-row int8 quantization: `scale = f32(max|row| / levels)` and
 * `q = clamp(roundHalfAwayFromZero(f32(x / scale)), -levels, levels)`, so `x ≈ q · scale`. An all-zero
 * row gets scale 0 and zeros. Every value must be finite: NaN or ±Infinity would make the whole
 * row's scale meaningless, so it is refused with a typed error naming the first one (the scan is
 * the max|x| pass the scale needs anyway, so it costs nothing). The wasm kernels' `quantize_rows`
 * computes the very same bytes (tested).
 * Shapes: `values [rows, depth]` float32 → int8 `[rows, depth]` and scales `[rows]`.
 *
 * @example
 * quantizeRows(Float32Array.of(0.5, -1, 0.25), 1, 3, 127, 'f', 'x'); // values [64, -127, 32], scales [1/127]
 */
export function quantizeRows(values: ArrayLike<number>, rows: number, depth: number, levels: 127 | 63, caller: string, argument: string): QuantizedRows {
  const name = messageText(argument); // a name for messages: whatever it is, made text once
  checkInteger(rows, { caller, argument: `${name} rows`, min: 0 });
  checkInteger(depth, { caller, argument: `${name} depth`, min: 0 });
  if (levels !== 127 && levels !== 63) throw new InvalidArgumentError({ caller, argument: 'levels', expected: '127 (8-bit) or 63 (7-bit)', received: describeValue(levels) });
  const length = (values as { length?: unknown } | null)?.length;
  if (typeof values !== 'object' || values === null || typeof length !== 'number' || length < rows * depth) throw new InvalidArgumentError({ caller, argument: name, expected: `an array of at least rows · depth = ${rows * depth} numbers`, received: describeValue(values) });
  const out = new Int8Array(rows * depth);
  const scales = new Float32Array(rows);
  const round = Math.fround;
  for (let i = 0; i < rows; i++) {
    const start = i * depth;
    let max = 0;
    for (let p = start; p < start + depth; p++) {
      const magnitude = Math.abs(values[p] as number);
      if (!(magnitude < Infinity)) {
        throw new InvalidArgumentError({ caller, argument: name, expected: 'finite values only (int8 quantization scales each row by its largest magnitude)', received: `${typeof values[p] === 'number' ? values[p] : describeValue(values[p])} at flat index ${p}`, hint: 'Replace or mask the non-finite values first.' });
      }
      if (magnitude > max) max = magnitude;
    }
    const scale = round(max / levels);
    scales[i] = scale;
    if (scale === 0) continue; // a zero row (or one below float32's range) stays 0
    for (let p = start; p < start + depth; p++) {
      const r = round((values[p] as number) / scale); // float32 division, as f32x4.div in the kernels
      let q = Math.trunc(r);
      if (Math.abs(r - q) >= 0.5) q += r < 0 ? -1 : 1; // half away from zero
      out[p] = q > levels ? levels : q < -levels ? -levels : q;
    }
  }
  return { values: out, scales };
}
