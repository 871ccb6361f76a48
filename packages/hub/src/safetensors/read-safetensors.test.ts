import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { readSafetensors } from './read-safetensors.js';
import { SafetensorsError } from './safetensors-error.js';
import { writeSafetensors } from './write-safetensors.js';

/** A file with a hand-written header and `data` bytes, to build lying and truncated files. */
function file(header: unknown, data: Uint8Array = new Uint8Array(0), claimedHeaderSize?: number): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(8 + json.length + data.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(claimedHeaderSize ?? json.length), true);
  out.set(json, 8);
  out.set(data, 8 + json.length);
  return out;
}

describe('readSafetensors', () => {
  it('round-trips F32 tensors and metadata written by writeSafetensors', () => {
    const bytes = writeSafetensors({ 'out_proj.bias': { shape: [2], values: Float32Array.of(0.5, -1) }, w: { shape: [1, 3], values: Float32Array.of(1, 2, 3) } }, { format: 'pt' });
    const { tensors, metadata } = readSafetensors(bytes);
    expect(metadata).toEqual({ format: 'pt' });
    expect(tensors.get('out_proj.bias')).toEqual({ dtype: 'F32', shape: [2], values: Float32Array.of(0.5, -1) });
    expect(Array.from(tensors.get('w')!.values)).toEqual([1, 2, 3]);
  });

  it('widens F16 and BF16 to float32 and narrows I64 to int32', () => {
    const f16 = Uint8Array.of(0x00, 0x3c, 0x00, 0xc0, 0x01, 0x00, 0x00, 0x7c); // 1, -2, 2^-24, +inf
    const bf16 = Uint8Array.of(0x80, 0x3f, 0x49, 0x40); // 1, 3.140625
    const i64 = new Uint8Array(16);
    new DataView(i64.buffer).setBigInt64(0, -5n, true);
    new DataView(i64.buffer).setBigInt64(8, 2147483647n, true);
    const data = new Uint8Array([...f16, ...bf16, ...i64]);
    const { tensors } = readSafetensors(file({ a: { dtype: 'F16', shape: [4], data_offsets: [0, 8] }, b: { dtype: 'BF16', shape: [2], data_offsets: [8, 12] }, c: { dtype: 'I64', shape: [2], data_offsets: [12, 28] } }, data));
    expect(Array.from(tensors.get('a')!.values)).toEqual([1, -2, 2 ** -24, Infinity]);
    expect(Array.from(tensors.get('b')!.values)).toEqual([1, 3.140625]);
    expect(Array.from(tensors.get('c')!.values)).toEqual([-5, 2147483647]);
  });

  it('round-trips I8 tensors next to F32 ones: Int8Array with keepInt8, widened to int32 without', () => {
    const weight = Int8Array.of(-127, -1, 0, 1, 5, 127); // [2, 3], odd byte counts before an F32 tensor
    const bytes = writeSafetensors({ 'dense.weight': { shape: [2, 3], values: weight }, 'dense.weight_scale': { shape: [2, 1], values: Float32Array.of(0.5, 0.25) }, odd: { shape: [1], values: Int8Array.of(-128) } });
    const kept = readSafetensors(bytes, { keepInt8: true }).tensors;
    expect(kept.get('dense.weight')).toEqual({ dtype: 'I8', shape: [2, 3], values: weight });
    expect(kept.get('odd')?.values).toEqual(Int8Array.of(-128));
    expect(kept.get('dense.weight_scale')).toEqual({ dtype: 'F32', shape: [2, 1], values: Float32Array.of(0.5, 0.25) });
    const widened = readSafetensors(bytes).tensors.get('dense.weight')!;
    expect(widened.dtype).toBe('I8');
    expect(widened.values).toEqual(Int32Array.of(-127, -1, 0, 1, 5, 127));
  });

  const f32 = (shape: number[], offsets: number[]) => ({ dtype: 'F32', shape, data_offsets: offsets });
  it.each<[string, () => Uint8Array, SafetensorsError['reason'], string]>([
    ['fewer than 8 bytes', () => Uint8Array.of(1, 2, 3), 'truncated', 'safetensors: the file has 3 bytes; at least 8 are needed for the header size.'],
    ['a header size beyond the file', () => file({}, new Uint8Array(0), 1000), 'truncated', 'safetensors: the header claims 1000 bytes but only 2 follow the size field.'],
    ['an absurd header size (no allocation attempted)', () => file({}, new Uint8Array(0), 2 ** 40), 'header', 'safetensors: the header claims 1099511627776 bytes, more than the 100000000 allowed.'],
    ['a header that is not JSON', () => { const b = file({ a: 1 }); b[8] = 0x7b; b[9] = 0x7b; return b; }, 'header', ''],
    ['a header that is a list', () => file([1, 2]), 'header', 'safetensors: the header must be a JSON object of tensor names.'],
    ['metadata with a number value (the reference reader refuses it; never dropped silently)', () => file({ __metadata__: { format: 'pt', epoch: 3 } }), 'header', "safetensors: '__metadata__' must be an object of strings; its entry \"epoch\" is number."],
    ['metadata that is a list', () => file({ __metadata__: ['pt'] }), 'header', "safetensors: '__metadata__' must be an object of strings."],
    ['an unsupported dtype', () => file({ a: { dtype: 'F64', shape: [1], data_offsets: [0, 8] } }, new Uint8Array(8)), 'dtype', 'safetensors: tensor \'a\' has dtype "F64"; attnkit reads F32, F16, BF16, I32, I64, I8.'],
    ['a negative dimension', () => file({ a: f32([-1], [0, 4]) }, new Uint8Array(4)), 'shape', "safetensors: tensor 'a' has shape [-1]; expected a list of non-negative integers."],
    ['offsets that lie about the size', () => file({ a: f32([3], [0, 8]) }, new Uint8Array(8)), 'shape', "safetensors: tensor 'a' (F32 [3]) needs 12 bytes but its offsets span 8."],
    ['a tensor past the end (truncated data)', () => file({ a: f32([4], [0, 16]) }, new Uint8Array(8)), 'offsets', "safetensors: tensor 'a' ends at byte 16 but the data section has 8 bytes."],
    ['overlapping tensors', () => file({ a: f32([2], [0, 8]), b: f32([2], [4, 12]) }, new Uint8Array(12)), 'offsets', "safetensors: tensor 'b' starts at byte 4, inside the previous tensor (which ends at 8)."],
    ['a hole between tensors', () => file({ a: f32([1], [0, 4]), b: f32([1], [8, 12]) }, new Uint8Array(12)), 'offsets', 'safetensors: bytes 4..8 of the data section belong to no tensor (the format allows no holes).'],
    ['trailing bytes no tensor claims', () => file({ a: f32([1], [0, 4]) }, new Uint8Array(8)), 'offsets', 'safetensors: the data section has 8 bytes but the tensors cover 4.'],
    ['reversed offsets', () => file({ a: f32([0], [4, 0]) }, new Uint8Array(4)), 'offsets', "safetensors: tensor 'a' has data_offsets [4,0]; expected [begin, end] with 0 ≤ begin ≤ end."],
    ['I8 offsets that lie about the size', () => file({ q: { dtype: 'I8', shape: [2, 3], data_offsets: [0, 5] } }, new Uint8Array(5)), 'shape', "safetensors: tensor 'q' (I8 [2, 3]) needs 6 bytes but its offsets span 5."],
    ['a truncated I8 tensor', () => file({ q: { dtype: 'I8', shape: [8], data_offsets: [0, 8] } }, new Uint8Array(6)), 'offsets', "safetensors: tensor 'q' ends at byte 8 but the data section has 6 bytes."],
    ['an I8 tensor with a hole after it', () => file({ q: { dtype: 'I8', shape: [3], data_offsets: [0, 3] }, s: f32([1], [4, 8]) }, new Uint8Array(8)), 'offsets', 'safetensors: bytes 3..4 of the data section belong to no tensor (the format allows no holes).'],
    ['an I64 beyond int32', () => { const d = new Uint8Array(8); new DataView(d.buffer).setBigInt64(0, 2n ** 40n, true); return file({ ids: { dtype: 'I64', shape: [1], data_offsets: [0, 8] } }, d); }, 'dtype', "safetensors: tensor 'ids' holds 1099511627776, which does not fit int32."],
  ])('rejects %s with a typed error', (_, make, reason, message) => {
    const error = thrown(() => readSafetensors(make()));
    expect(error).toBeInstanceOf(SafetensorsError);
    expect((error as SafetensorsError).reason).toBe(reason);
    if (message !== '') expect(error.message).toBe(message);
  });

  it("treats a '__proto__' tensor name as a name, not as the object prototype", () => {
    const bytes = new TextEncoder().encode('{"__proto__":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}');
    const out = new Uint8Array(8 + bytes.length + 4);
    new DataView(out.buffer).setBigUint64(0, BigInt(bytes.length), true);
    out.set(bytes, 8);
    const { tensors } = readSafetensors(out);
    expect([...tensors.keys()]).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['dtype']).toBeUndefined();
  });
});

describe('readSafetensors on host memory views', () => {
  const file = writeSafetensors({ a: { shape: [3], values: Float32Array.of(1, 2, 3) }, b: { shape: [1], values: Float32Array.of(4) } });
  it('reads a Node Buffer at an odd offset in a pooled buffer, copying (never aliasing) the values', () => {
    const pooled = Buffer.alloc(file.length + 3);
    pooled.set(file, 3);
    const view = pooled.subarray(3);
    const { tensors } = readSafetensors(view);
    expect(Array.from(tensors.get('a')!.values)).toEqual([1, 2, 3]);
    pooled.fill(0);
    expect(Array.from(tensors.get('b')!.values)).toEqual([4]);
  });
  it('reads a SharedArrayBuffer and a typed-array view at an odd offset of one', () => {
    const shared = new SharedArrayBuffer(file.length + 1);
    new Uint8Array(shared).set(file, 1);
    expect(Array.from(readSafetensors(new Uint8Array(shared, 1)).tensors.get('a')!.values)).toEqual([1, 2, 3]);
    const whole = new SharedArrayBuffer(file.length);
    new Uint8Array(whole).set(file);
    expect(Array.from(readSafetensors(whole as unknown as ArrayBuffer).tensors.get('b')!.values)).toEqual([4]);
  });

  it('reads a DataView or another typed array over the file as its bytes, and refuses what is not bytes', () => {
    const padded = new ArrayBuffer(file.length + 4);
    new Uint8Array(padded).set(file, 4);
    expect(Array.from(readSafetensors(new DataView(padded, 4, file.length)).tensors.get('a')!.values)).toEqual([1, 2, 3]);
    const aligned = new ArrayBuffer(file.length + (4 - (file.length % 4)) % 4);
    new Uint8Array(aligned).set(file);
    expect(readSafetensors(new Uint8Array(new Uint32Array(aligned).buffer, 0, file.length)).tensors.size).toBe(2);
    for (const notBytes of [[1, 2, 3], 'file.safetensors', { length: 8 }, null]) {
      const error = thrown(() => readSafetensors(notBytes as never));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toMatch(/^readSafetensors: 'input' must be the file as bytes: a Uint8Array \(a Node Buffer\), another ArrayBuffer view, an ArrayBuffer or a SharedArrayBuffer; received /);
    }
  });
});
