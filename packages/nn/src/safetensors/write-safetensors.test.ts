import { describe, expect, it } from 'vitest';
import { SafetensorsError } from './safetensors-error.js';
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
});

describe('writeSafetensors refuses what its reader would refuse', () => {
  const values = Float32Array.of(1, 2);
  it.each([
    ['a tensor named __metadata__', { __metadata__: { shape: [2], values } }, 'safetensors: writeSafetensors: a tensor cannot be named "__metadata__" (the format reserves "__metadata__"; names are non-empty).'],
    ['an empty name', { '': { shape: [2], values } }, 'safetensors: writeSafetensors: a tensor cannot be named "" (the format reserves "__metadata__"; names are non-empty).'],
    ['a shape that does not match the values', { a: { shape: [5], values } }, 'safetensors: writeSafetensors: tensor "a" has shape [5] (5 values) but holds 2.'],
    ['a negative dimension', { a: { shape: [-2], values } }, 'safetensors: writeSafetensors: tensor "a" has shape [-2]; expected a list of non-negative integers.'],
    ['float64 values', { a: { shape: [2], values: Float64Array.of(1, 2) } }, 'safetensors: writeSafetensors: tensor "a" must hold a Float32Array; received [object Float64Array].'],
  ])('%s', (_, tensors, message) => {
    expect(() => writeSafetensors(tensors as never)).toThrow(SafetensorsError);
    expect(() => writeSafetensors(tensors as never)).toThrow(message);
  });
  it('non-string metadata', () => {
    expect(() => writeSafetensors({ a: { shape: [2], values } }, { n: 3 } as never)).toThrow('safetensors: writeSafetensors: metadata "n" must be a string; received number.');
  });
});
