import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NPY_HEADER_BYTES, npyHeader, readNpyHeader } from './npy-header.js';

// Written by numpy.save (tooling/reference/make_npy_fixture.py): a float32 [3, 4] array of 0..11.
const NUMPY_FILE = decodeURIComponent(new URL('../../../../tooling/reference/fixtures/npy/arange-3x4-float32.npy', import.meta.url).pathname);

describe('npy headers', () => {
  it('reads a header numpy wrote, and the data after it', () => {
    const bytes = readFileSync(NUMPY_FILE);
    const header = readNpyHeader(bytes);
    expect(header).toEqual({ descr: '<f4', fortranOrder: false, shape: [3, 4], dataOffset: expect.any(Number) });
    expect(header!.dataOffset % 64).toBe(0);
    expect(Array.from(new Float32Array(bytes.buffer.slice(bytes.byteOffset + header!.dataOffset, bytes.byteOffset + bytes.length)))).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });

  it('writes a 128-byte format 1.0 header with the same fields (so it can be rewritten in place with the final row count)', () => {
    for (const [rows, dim] of [[0, 384], [1000, 768], [123_456_789_012, 4096]] as const) {
      const bytes = npyHeader(rows, dim);
      expect(bytes.length).toBe(NPY_HEADER_BYTES);
      expect(Array.from(bytes.subarray(0, 8))).toEqual([0x93, 78, 85, 77, 80, 89, 1, 0]);
      expect(bytes[NPY_HEADER_BYTES - 1]).toBe(10); // the dict ends with a newline, as the format asks
      expect(readNpyHeader(bytes)).toEqual({ descr: '<f4', fortranOrder: false, shape: [rows, dim], dataOffset: NPY_HEADER_BYTES });
    }
  });

  it('returns undefined for bytes that are not a .npy header', () => {
    expect(readNpyHeader(new Uint8Array(5))).toBeUndefined();
    expect(readNpyHeader(Buffer.from('{"not": "npy"}'))).toBeUndefined();
    expect(readNpyHeader(npyHeader(3, 4).subarray(0, 40))).toBeUndefined();
  });
});
