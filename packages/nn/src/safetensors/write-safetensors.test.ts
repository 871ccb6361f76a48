import { describe, expect, it } from 'vitest';
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
