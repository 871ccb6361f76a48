import { InvalidArgumentError, describeValue } from '@attnkit/errors';

/**
 * float32 values narrowed to IEEE half (F16) or bfloat16 (BF16), little-endian, rounding to
 * nearest (ties to even) as PyTorch's `.half()` / `.bfloat16()` do: the inverse of `decodeHalf`
 * for values it gave (exact), the usual rounding for others. Out-of-range values become ±Infinity
 * (F16), NaN stays NaN.
 *
 * @example
 * encodeHalf(Float32Array.of(1, -2), 'F16'); // Uint8Array [0x00, 0x3c, 0x00, 0xc0]
 */
export function encodeHalf(values: Float32Array, dtype: 'F16' | 'BF16'): Uint8Array {
  if (!(values instanceof Float32Array)) throw new InvalidArgumentError({ caller: 'encodeHalf', argument: 'values', expected: 'a Float32Array', received: describeValue(values) });
  if (dtype !== 'F16' && dtype !== 'BF16') throw new InvalidArgumentError({ caller: 'encodeHalf', argument: 'dtype', expected: "'F16' or 'BF16'", received: describeValue(dtype) });
  const bits = new Uint32Array(values.buffer, values.byteOffset, values.length);
  const out = new Uint16Array(values.length); // little-endian engines only, as tfjs itself
  for (let i = 0; i < values.length; i++) out[i] = dtype === 'BF16' ? toBfloat16(bits[i] as number) : toHalf(bits[i] as number);
  return new Uint8Array(out.buffer);
}

/** bfloat16 is the top half of a float32: round the bottom half away, ties to even. */
function toBfloat16(x: number): number {
  if ((x & 0x7f800000) === 0x7f800000 && (x & 0x7fffff) !== 0) return (x >>> 16) | 0x40; // a quiet NaN
  return ((x + 0x7fff + ((x >>> 16) & 1)) >>> 16) & 0xffff;
}

function toHalf(x: number): number {
  const sign = (x >>> 16) & 0x8000;
  const exponent = (x >>> 23) & 0xff;
  let mantissa = x & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa === 0 ? 0 : 0x200); // ±Infinity, NaN
  const e = exponent - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00; // too large: ±Infinity
  if (e <= 0) { // a half subnormal (or zero)
    if (e < -10) return sign;
    mantissa |= 0x800000;
    const shift = 14 - e;
    let half = mantissa >>> shift;
    const rest = mantissa & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    if (rest > halfway || (rest === halfway && (half & 1) === 1)) half += 1;
    return sign | half;
  }
  let half = (e << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (half & 1) === 1)) half += 1; // a carry into the exponent is right (up to Infinity)
  return sign | half;
}
