import { InvalidArgumentError, describeValue } from '@attnkit/errors';
/**
 * IEEE half (F16) or bfloat16 (BF16) values, little-endian, widened to float32.
 *
 * @example
 * decodeHalf(Uint8Array.of(0x00, 0x3c), 'F16'); // Float32Array [1]
 */
export function decodeHalf(bytes: Uint8Array, dtype: 'F16' | 'BF16'): Float32Array {
  if (!(bytes instanceof Uint8Array) || bytes.length % 2 !== 0) throw new InvalidArgumentError({ caller: 'decodeHalf', argument: 'bytes', expected: 'a Uint8Array of 2-byte values', received: describeValue(bytes) });
  if (dtype !== 'F16' && dtype !== 'BF16') throw new InvalidArgumentError({ caller: 'decodeHalf', argument: 'dtype', expected: "'F16' or 'BF16'", received: describeValue(dtype) });
  const count = bytes.length / 2;
  const out = new Float32Array(count);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (dtype === 'BF16') {
    const wide = new DataView(new ArrayBuffer(4));
    for (let i = 0; i < count; i++) {
      wide.setUint32(0, view.getUint16(2 * i, true) << 16, true); // bfloat16 is the top half of a float32
      out[i] = wide.getFloat32(0, true);
    }
    return out;
  }
  for (let i = 0; i < count; i++) {
    const h = view.getUint16(2 * i, true);
    const sign = h & 0x8000 ? -1 : 1;
    const exponent = (h >> 10) & 0x1f;
    const fraction = h & 0x3ff;
    if (exponent === 0) out[i] = sign * fraction * 2 ** -24; // subnormal (and zero)
    else if (exponent === 0x1f) out[i] = fraction === 0 ? sign * Infinity : NaN;
    else out[i] = sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
  }
  return out;
}
