import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { npyHeader } from '../embed/npy-header.js';
import { npyEmbeddings } from './npy-embeddings.js';

const dir = mkdtempSync(join(tmpdir(), 'attnkit-npy-'));
/** A .npy file of `rows` × `dim` float32 values 0, 1, 2, ... with attnkit embed's header, `edit`ed. */
function npyFile(name: string, rows: number, dim: number, edit: (bytes: Buffer) => Buffer = (b) => b): string {
  const values = Float32Array.from({ length: rows * dim }, (_, i) => i);
  const path = join(dir, name);
  writeFileSync(path, edit(Buffer.concat([npyHeader(rows, dim), Buffer.from(values.buffer)])));
  return path;
}
/** A NumPy header for another dtype, order or shape (format 1.0, padded to 128 bytes). */
function header(dict: string): Buffer {
  const length = 128 - 10;
  return Buffer.concat([Buffer.from([0x93, ...Buffer.from('NUMPY'), 1, 0, length, 0]), Buffer.from(`${dict.padEnd(length - 1, ' ')}\n`, 'latin1')]);
}

describe('npyEmbeddings', () => {
  it('reads any rows of a float32 matrix from disk, a chunk at a time', () => {
    const rows = npyEmbeddings(npyFile('ok.npy', 5, 3));
    expect([rows.rows, rows.dim, rows.bytes]).toEqual([5, 3, 128 + 60]);
    expect(Array.from(rows.read(1, 2))).toEqual([3, 4, 5, 6, 7, 8]);
    expect(Array.from(rows.read(4, 1))).toEqual([12, 13, 14]);
    expect(rows.read(5, 0)).toEqual(new Float32Array(0));
    expect(() => rows.read(4, 2)).toThrow("npyEmbeddings.read: 'start, count' must be rows within [0, 5); received 4, 2.");
    rows.close();
    expect(() => rows.read(0, 1)).toThrow(/must be an open file; received one closed by close\(\)/);
  });

  it.each([
    ['a truncated file', () => npyFile('cut.npy', 5, 3, (b) => b.subarray(0, b.length - 6)), /^npyEmbeddings: 'path' must be 188 bytes \(a 128-byte header and 5 × 3 float32 values\); received 182 bytes \(truncated\?\): .*cut\.npy\.$/],
    ['a longer file than its header says', () => npyFile('long.npy', 5, 3, (b) => Buffer.concat([b, Buffer.alloc(4)])), /must be 188 bytes .*; received 192 bytes: /],
    ['float64 values', () => { const p = join(dir, 'f8.npy'); writeFileSync(p, Buffer.concat([header("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }"), Buffer.alloc(32)])); return p; }, /must be float32 little-endian values \('<f4'\); received '<f8': .*f8\.npy\. Save the matrix as float32/],
    ['Fortran order', () => { const p = join(dir, 'fortran.npy'); writeFileSync(p, Buffer.concat([header("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }"), Buffer.alloc(16)])); return p; }, /must be rows stored one after another \(C order\); received Fortran order/],
    ['a vector', () => { const p = join(dir, 'vector.npy'); writeFileSync(p, Buffer.concat([header("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }"), Buffer.alloc(16)])); return p; }, /must be a matrix \[rows, dim\]; received shape \(4\)/],
    ['no .npy header', () => { const p = join(dir, 'text.npy'); writeFileSync(p, 'hello'); return p; }, /must be a NumPy \.npy file \(float32 rows, as attnkit embed writes\); received 5 bytes without a \.npy header/],
    ['a file that does not exist', () => join(dir, 'missing.npy'), /must be a readable \.npy file; received ENOENT: .*missing\.npy\./],
    ['an unfinished attnkit embed output', () => { const p = npyFile('unfinished.npy', 2, 3); writeFileSync(`${p}.embed.json`, JSON.stringify({ settings: {}, complete: false })); return p; }, /must be a finished attnkit embed output; received one still being written or interrupted \(.*unfinished\.npy\.embed\.json says complete: false\): .* Run the same attnkit embed command again to finish it\./],
  ])('refuses %s, naming the file', (_, make, message) => {
    const path = make();
    expect(() => npyEmbeddings(path)).toThrow(InvalidArgumentError);
    expect(() => npyEmbeddings(path)).toThrow(message);
  });

  it("names the command's option when a command opens it", () => {
    expect(() => npyEmbeddings(join(dir, 'missing.npy'), { caller: 'attnkit search', argument: '--index' })).toThrow(/^attnkit search: '--index' must be a readable \.npy file/);
  });
});
