import type { Tensor } from '@tensorflow/tfjs-core';

/** float32 → float16 bits, rounding to nearest even (overflow → ±Inf, tiny values → subnormals or 0). */
function half(value: number, scratch: DataView): number {
  scratch.setFloat32(0, value);
  const x = scratch.getUint32(0);
  const sign = (x >>> 16) & 0x8000;
  const exponent = (x >>> 23) & 0xff;
  let mantissa = x & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa !== 0 ? 0x200 : 0); // Inf, NaN
  let e = exponent - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mantissa |= 0x800000;
    const shift = 14 - e;
    const halfway = 1 << (shift - 1);
    let m = mantissa >> shift;
    const rest = mantissa & ((1 << shift) - 1);
    if (rest > halfway || (rest === halfway && (m & 1) === 1)) m++;
    return sign | m;
  }
  let m = mantissa >> 13;
  const rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (m & 1) === 1)) {
    m++;
    if (m === 0x400) {
      m = 0;
      e++;
      if (e >= 0x1f) return sign | 0x7c00;
    }
  }
  return sign | (e << 10) | m;
}

/**
 * A safetensors file with every tensor of `stateDict` stored as F16 (keys in order), for shipping
 * a small model at half the bytes. Used by train-demo-model.ts.
 */
export function float16Safetensors(stateDict: Map<string, Tensor>): Uint8Array {
  const scratch = new DataView(new ArrayBuffer(4));
  const header: Record<string, unknown> = { __metadata__: { format: 'pt' } };
  const parts: Uint16Array[] = [];
  let offset = 0;
  for (const [name, tensor] of stateDict) {
    const values = tensor.dataSync() as Float32Array;
    const bits = new Uint16Array(values.length);
    for (let i = 0; i < values.length; i++) bits[i] = half(values[i]!, scratch);
    header[name] = { dtype: 'F16', shape: tensor.shape, data_offsets: [offset, offset + bits.byteLength] };
    offset += bits.byteLength;
    parts.push(bits);
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const out = new Uint8Array(8 + json.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(new TextEncoder().encode(json), 8);
  let at = 8 + json.length;
  for (const bits of parts) {
    out.set(new Uint8Array(bits.buffer), at);
    at += bits.byteLength;
  }
  return out;
}
