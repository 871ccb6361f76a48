/** Bytes of the header `attnkit embed` writes: fixed, so the row count can be rewritten in place. */
export const NPY_HEADER_BYTES = 128;

/**
 * A NumPy `.npy` (format 1.0) header for a C-order float32 little-endian matrix `[rows, dim]`,
 * padded with spaces to {@link NPY_HEADER_BYTES} bytes so the data starts 64-byte aligned.
 *
 * @example
 * const header = npyHeader(1000, 384); // 128 bytes; then 1000 × 384 float32 values
 */
export function npyHeader(rows: number, dim: number): Uint8Array {
  const dict = `{'descr': '<f4', 'fortran_order': False, 'shape': (${rows}, ${dim}), }`;
  const length = NPY_HEADER_BYTES - 10;
  if (dict.length + 1 > length) throw new RangeError(`npyHeader: shape (${rows}, ${dim}) does not fit a ${NPY_HEADER_BYTES}-byte header`);
  const bytes = new Uint8Array(NPY_HEADER_BYTES);
  bytes.set([0x93, ...Buffer.from('NUMPY'), 1, 0, length & 0xff, length >> 8]);
  bytes.set(Buffer.from(`${dict.padEnd(length - 1, ' ')}\n`, 'latin1'), 10);
  return bytes;
}

/** What a `.npy` header says. */
export interface NpyHeader {
  readonly descr: string;
  readonly fortranOrder: boolean;
  readonly shape: readonly number[];
  /** Where the data starts. */
  readonly dataOffset: number;
}

/**
 * Reads a `.npy` header (format 1.x or 2.x); `undefined` if the bytes are not one.
 *
 * @example
 * readNpyHeader(readFileSync('vectors.npy'))?.shape; // [1000, 384]
 */
export function readNpyHeader(bytes: Uint8Array): NpyHeader | undefined {
  if (bytes.length < 10 || bytes[0] !== 0x93 || Buffer.from(bytes.subarray(1, 6)).toString('latin1') !== 'NUMPY') return undefined;
  const major = bytes[6];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [length, start] = major === 1 ? [view.getUint16(8, true), 10] : major === 2 && bytes.length >= 12 ? [view.getUint32(8, true), 12] : [-1, 0];
  if (length < 0 || bytes.length < start + length) return undefined;
  const dict = Buffer.from(bytes.subarray(start, start + length)).toString('latin1');
  const descr = /'descr':\s*'([^']+)'/.exec(dict)?.[1];
  const fortran = /'fortran_order':\s*(True|False)/.exec(dict)?.[1];
  const shape = /'shape':\s*\(([^)]*)\)/.exec(dict)?.[1];
  if (descr === undefined || fortran === undefined || shape === undefined) return undefined;
  const dims = shape.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (!dims.every((d) => /^\d+$/.test(d))) return undefined;
  return { descr, fortranOrder: fortran === 'True', shape: dims.map(Number), dataOffset: start + length };
}
