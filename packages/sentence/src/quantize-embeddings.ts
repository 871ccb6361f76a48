import type { Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkOptionKeys, checkTensor, describeValue, isTensorLike } from '@attnkit/errors';

/** The precisions of sentence-transformers' `quantize_embeddings` (and `encode(..., precision)`). */
export const PRECISIONS = ['float32', 'int8', 'uint8', 'binary', 'ubinary'] as const;

/** One of {@link PRECISIONS}. */
export type Precision = (typeof PRECISIONS)[number];

/** Quantized embeddings: `rows × width` values, row-major. `binary` / `ubinary` pack 8 dimensions per byte (`width = ceil(E / 8)`). */
export interface QuantizedEmbeddings {
  readonly precision: Exclude<Precision, 'float32'>;
  readonly shape: readonly [number, number];
  readonly values: Int8Array | Uint8Array;
}

/** Per-dimension calibration: the lowest and highest value of each of the E dimensions. */
export interface QuantizationRanges {
  readonly min: ArrayLike<number>;
  readonly max: ArrayLike<number>;
}

/**
 * Per-dimension `{ min, max }` of `embeddings [N, E]`: the calibration `int8` / `uint8` use. Compute
 * it once on a large sample of a corpus and pass it to every {@link quantizeEmbeddings} call, so
 * that all batches share one scale.
 *
 * @example
 * const ranges = await quantizationRanges(await encoder.encode(sample));
 */
export async function quantizationRanges(embeddings: Tensor): Promise<QuantizationRanges> {
  checkTensor(embeddings, { caller: 'quantizationRanges', argument: 'embeddings', dtype: 'float32', rank: 2, shape: '[N, E]' });
  const [rows = 0, width = 0] = embeddings.shape;
  if (rows === 0) throw new InvalidArgumentError({ caller: 'quantizationRanges', argument: 'embeddings', expected: 'at least one row to calibrate on', received: '[0, E]' });
  const values = await embeddings.data(); // asynchronous: a synchronous read-back stalls or reads zeros on WebGPU
  const min = new Float32Array(width).fill(Infinity);
  const max = new Float32Array(width).fill(-Infinity);
  for (let i = 0; i < values.length; i++) {
    const d = i % width;
    const v = values[i] as number;
    if (v < (min[d] as number)) min[d] = v;
    if (v > (max[d] as number)) max[d] = v;
  }
  return { min, max };
}

/**
 * sentence-transformers' `quantize_embeddings` for `embeddings [N, E]`:
 * - `int8` / `uint8`: per dimension, `floor((x - min) / ((max - min) / 255))` clipped to 0..255
 *   (`int8` subtracts 128); `min` / `max` from `ranges`, else (absent or `null`, as `ranges=None`) from these embeddings themselves
 *   (as sentence-transformers does, so the scale depends on the batch: pass `ranges` for a corpus);
 * - `binary` / `ubinary`: one bit per dimension (`x > 0`), 8 to a byte, first dimension in the
 *   high bit (`ubinary`: the byte; `binary`: the byte - 128). Levels are computed in float64 on the
 *   float32 values; a value within float32 rounding of a level boundary may land one level apart
 *   from a float32 NumPy run.
 *
 * @example
 * const packed = await quantizeEmbeddings(embeddings, 'ubinary'); // { shape: [N, ceil(E / 8)], values: Uint8Array }
 */
export async function quantizeEmbeddings(embeddings: Tensor, precision: Exclude<Precision, 'float32'>, options: { readonly ranges?: QuantizationRanges } = {}): Promise<QuantizedEmbeddings> {
  const caller = 'quantizeEmbeddings';
  checkTensor(embeddings, { caller, argument: 'embeddings', dtype: 'float32', rank: 2, shape: '[N, E]' });
  const [rows = 0, width = 0] = embeddings.shape;
  if (!(PRECISIONS as readonly unknown[]).includes(precision) || precision === ('float32' as Precision)) {
    throw new InvalidArgumentError({ caller, argument: 'precision', expected: "'int8', 'uint8', 'binary' or 'ubinary'", received: JSON.stringify(precision) ?? String(precision) });
  }
  const given = checkOptionKeys(options, ['ranges'], caller).ranges ?? undefined; // null: computed, as ranges=None
  if (given !== undefined) checkRanges(given, precision, width, caller);
  const values = await embeddings.data();
  if (precision === 'binary' || precision === 'ubinary') {
    const bytes = Math.ceil(width / 8);
    const packed = new Uint8Array(rows * bytes);
    for (let r = 0; r < rows; r++) {
      for (let d = 0; d < width; d++) {
        if ((values[r * width + d] as number) > 0) packed[r * bytes + (d >> 3)]! |= 0x80 >> (d & 7);
      }
    }
    return { precision, shape: [rows, bytes], values: precision === 'ubinary' ? packed : Int8Array.from(packed, (b) => b - 128) };
  }
  if (rows === 0 && given === undefined) return { precision, shape: [0, width], values: precision === 'int8' ? new Int8Array(0) : new Uint8Array(0) };
  const ranges = given ?? (await quantizationRanges(embeddings));
  if (ranges.min.length !== width || ranges.max.length !== width) {
    throw new InvalidArgumentError({ caller, argument: 'ranges', expected: `min and max of E = ${width} values each`, received: `${ranges.min.length} and ${ranges.max.length}` });
  }
  const steps = Float64Array.from({ length: width }, (_, d) => {
    const step = ((ranges.max[d] as number) - (ranges.min[d] as number)) / 255;
    return step === 0 ? 1 : step;
  });
  const out = precision === 'int8' ? new Int8Array(rows * width) : new Uint8Array(rows * width);
  for (let i = 0; i < rows * width; i++) {
    const d = i % width;
    const level = Math.min(255, Math.max(0, Math.floor(((values[i] as number) - (ranges.min[d] as number)) / (steps[d] as number))));
    out[i] = precision === 'int8' ? level - 128 : level;
  }
  return { precision, shape: [rows, width], values: out };
}

/**
 * `ranges` as `quantizeEmbeddings` reads them: `{ min, max }`, each a list of `width` finite
 * numbers, and only with a precision they calibrate (`int8`, `uint8`).
 *
 * @example
 * checkRanges(quantizationRanges(calibration), 'int8', 384, 'SentenceEncoder.encode');
 */
export function checkRanges(ranges: unknown, precision: Precision, width: number, caller: string): void {
  if (precision === 'float32') throw new InvalidArgumentError({ caller, argument: 'ranges', expected: "absent with precision 'float32' (ranges calibrate 'int8' / 'uint8')", received: describeValue(ranges) });
  const expected = `quantization ranges { min, max }: two lists of E = ${width} numbers (from quantizationRanges())`;
  if (typeof ranges !== 'object' || ranges === null || isTensorLike(ranges)) throw new InvalidArgumentError({ caller, argument: 'ranges', expected, received: describeValue(ranges) });
  for (const side of ['min', 'max'] as const) {
    const list = (ranges as Record<string, unknown>)[side];
    const listLike = Array.isArray(list) || ArrayBuffer.isView(list);
    if (!listLike || (list as ArrayLike<unknown>).length !== width || !Array.from(list as ArrayLike<unknown>).every((v) => typeof v === 'number' && Number.isFinite(v))) {
      throw new InvalidArgumentError({ caller, argument: `ranges.${side}`, expected, received: describeValue(list) });
    }
  }
}
