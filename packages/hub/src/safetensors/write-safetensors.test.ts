import { describe, expect, it } from 'vitest';
import { SafetensorsError } from './safetensors-error.js';
import { readSafetensors } from './read-safetensors.js';
import { writeSafetensors } from './write-safetensors.js';

describe('writeSafetensors', () => {
  it('writes an 8-byte-aligned data section in sorted name order', () => {
    const bytes = writeSafetensors({ b: { shape: [1], values: Float32Array.of(2) }, a: { shape: [1], values: Float32Array.of(1) } });
    const headerSize = Number(new DataView(bytes.buffer).getBigUint64(0, true));
    expect((8 + headerSize) % 8).toBe(0);
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerSize))) as Record<string, { data_offsets: number[] }>;
    expect(Object.keys(header)).toEqual(['a', 'b']);
    expect(header['b']?.data_offsets).toEqual([4, 8]);
    expect(Array.from(new Float32Array(bytes.slice(8 + headerSize).buffer))).toEqual([1, 2]);
  });

  it('narrows a Float32Array to F16 or BF16 when asked, which readSafetensors widens back exactly', () => {
    const values = Float32Array.of(1, -2, 0.0999755859375, 2 ** -24);
    const bytes = writeSafetensors({ h: { shape: [4], values, dtype: 'F16' }, b: { shape: [2], values: Float32Array.of(1, 3.140625), dtype: 'BF16' }, f: { shape: [1], values: Float32Array.of(0.1) } });
    const { tensors } = readSafetensors(bytes);
    expect(tensors.get('h')).toEqual({ dtype: 'F16', shape: [4], values });
    expect(tensors.get('b')).toEqual({ dtype: 'BF16', shape: [2], values: Float32Array.of(1, 3.140625) });
    expect(tensors.get('f')?.dtype).toBe('F32');
    expect(bytes.length - Number(new DataView(bytes.buffer).getBigUint64(0, true)) - 8).toBe(8 + 4 + 4); // 2 bytes an F16 or BF16 value
  });

  it('writes an Int8Array as I8, one byte a value', () => {
    const bytes = writeSafetensors({ q: { shape: [2, 2], values: Int8Array.of(127, -3, 0, -128) } });
    const headerSize = Number(new DataView(bytes.buffer).getBigUint64(0, true));
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerSize))) as Record<string, { dtype: string; data_offsets: number[] }>;
    expect(header['q']).toEqual({ dtype: 'I8', shape: [2, 2], data_offsets: [0, 4] });
    expect(Array.from(new Int8Array(bytes.slice(8 + headerSize).buffer))).toEqual([127, -3, 0, -128]);
  });
});

describe('writeSafetensors refuses what its reader would refuse', () => {
  const values = Float32Array.of(1, 2);
  it.each([
    ['a tensor named __metadata__', { __metadata__: { shape: [2], values } }, 'safetensors: writeSafetensors: a tensor cannot be named "__metadata__" (the format reserves "__metadata__"; names are non-empty).'],
    ['an empty name', { '': { shape: [2], values } }, 'safetensors: writeSafetensors: a tensor cannot be named "" (the format reserves "__metadata__"; names are non-empty).'],
    ['a shape that does not match the values', { a: { shape: [5], values } }, 'safetensors: writeSafetensors: tensor "a" has shape [5] (5 values) but holds 2.'],
    ['a negative dimension', { a: { shape: [-2], values } }, 'safetensors: writeSafetensors: tensor "a" has shape [-2]; expected a list of non-negative integers.'],
    ['float64 values', { a: { shape: [2], values: Float64Array.of(1, 2) } }, 'safetensors: writeSafetensors: tensor "a" must hold a Float32Array (F32) or an Int8Array (I8); received [object Float64Array].'],
    ['uint8 values', { a: { shape: [2], values: Uint8Array.of(1, 2) } }, 'safetensors: writeSafetensors: tensor "a" must hold a Float32Array (F32) or an Int8Array (I8); received [object Uint8Array].'],
    ['int8 values said to be F16', { q: { shape: [2], values: Int8Array.of(1, 2), dtype: 'F16' } }, 'safetensors: writeSafetensors: tensor "q" has dtype "F16"; an Int8Array is stored as "I8", a Float32Array as "F32", "F16" or "BF16".'],
    ['float values said to be I8', { q: { shape: [2], values, dtype: 'I8' } }, 'safetensors: writeSafetensors: tensor "q" has dtype "I8"; an Int8Array is stored as "I8", a Float32Array as "F32", "F16" or "BF16".'],
    ['an unknown dtype', { q: { shape: [2], values, dtype: 'F64' } }, 'safetensors: writeSafetensors: tensor "q" has dtype "F64"; an Int8Array is stored as "I8", a Float32Array as "F32", "F16" or "BF16".'],
    ['int8 values that do not match the shape', { q: { shape: [2, 2], values: Int8Array.of(1, 2, 3) } }, 'safetensors: writeSafetensors: tensor "q" has shape [2, 2] (4 values) but holds 3.'],
  ])('%s', (_, tensors, message) => {
    expect(() => writeSafetensors(tensors as never)).toThrow(SafetensorsError);
    expect(() => writeSafetensors(tensors as never)).toThrow(message);
  });
  it('non-string metadata', () => {
    expect(() => writeSafetensors({ a: { shape: [2], values } }, { n: 3 } as never)).toThrow('safetensors: writeSafetensors: metadata "n" must be a string; received number.');
  });
});
