import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { InvalidArgumentError } from '@attnkit/errors';
import type { EmbeddingRows } from '@attnkit/sentence';
import { readNpyHeader } from '../embed/npy-header.js';

/** A `.npy` matrix on disk, read a chunk of rows at a time: `EmbeddingRows` for `semanticSearch`, and the file to close. */
export interface NpyEmbeddings extends EmbeddingRows {
  readonly path: string;
  /** Bytes of the file (header and rows). */
  readonly bytes: number;
  /** Rows `start .. start + count - 1`, read from disk now: `count · dim` values, row after row. */
  read(start: number, count: number): Float32Array;
  /** Closes the file; later reads throw. */
  close(): void;
}

const HEADER_READ = 4096;

/**
 * Opens a float32 `.npy` matrix `[rows, dim]` — what `attnkit embed` writes, or NumPy's
 * `np.save(path, x.astype(np.float32))` — for reading by chunks: `read(start, count)` reads those
 * rows from disk (positional reads of `count · dim · 4` bytes, nothing else kept), so a file larger
 * than memory is searched in bounded memory. Checked when opened, each a typed error naming the
 * file: a header that is not NumPy's, another dtype or byte order (`<f4` only), Fortran order, a
 * shape that is not 2-D, a file shorter or longer than its header says (a truncated copy), and an
 * `attnkit embed` output that is not finished (its sidecar says so; run embed again to finish it).
 *
 * @example
 * const corpus = npyEmbeddings('vectors.npy'); // { rows: 100000, dim: 384, read, close }; errors name 'path' (or options.argument: '--index')
 * const hits = await semanticSearch(queries, corpus, { topK: 10 });
 * corpus.close();
 */
export function npyEmbeddings(path: string, { caller = 'npyEmbeddings', argument = 'path' }: { readonly caller?: string; readonly argument?: string } = {}): NpyEmbeddings {
  if (typeof path !== 'string' || path === '') throw new InvalidArgumentError({ caller, argument, expected: 'the path of a .npy file', received: JSON.stringify(path) ?? String(path) });
  const fail = (expected: string, received: string, hint?: string): never => {
    throw new InvalidArgumentError({ caller, argument, expected, received: `${received}: ${path}`, ...(hint === undefined ? {} : { hint }) });
  };
  let fd = -1;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    fail('a readable .npy file', `${(error as { code?: string }).code ?? (error as Error).message}`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) fail('a regular .npy file', 'a folder, device or pipe');
    const head = Buffer.alloc(Math.min(HEADER_READ, stats.size));
    readSync(fd, head, 0, head.length, 0);
    const header = readNpyHeader(head);
    if (header === undefined) fail('a NumPy .npy file (float32 rows, as attnkit embed writes)', `${stats.size} bytes without a .npy header`);
    const { descr, fortranOrder, shape, dataOffset } = header!;
    if (descr !== '<f4') fail("float32 little-endian values ('<f4')", `'${descr}'`, 'Save the matrix as float32: np.save(path, x.astype(np.float32)).');
    if (fortranOrder) fail('rows stored one after another (C order)', 'Fortran order', 'Save np.ascontiguousarray(x).');
    if (shape.length !== 2) fail('a matrix [rows, dim]', `shape (${shape.join(', ')})`);
    const [rows, dim] = shape as [number, number];
    if (dim < 1) fail('rows of at least one value', `shape (${rows}, ${dim})`);
    const sidecar = `${path}.embed.json`;
    if (existsSync(sidecar)) {
      let complete = true;
      try { complete = (JSON.parse(readFileSync(sidecar, 'utf8')) as { complete?: unknown }).complete !== false; } catch { /* not a sidecar: judged by its size */ }
      if (!complete) fail('a finished attnkit embed output', `one still being written or interrupted (${sidecar} says complete: false)`, 'Run the same attnkit embed command again to finish it.');
    }
    const expected = dataOffset + rows * dim * 4;
    if (stats.size !== expected) fail(`${expected} bytes (a ${dataOffset}-byte header and ${rows} × ${dim} float32 values)`, `${stats.size} bytes${stats.size < expected ? ' (truncated?)' : ''}`);
    const opened = fd;
    let closed = false;
    return {
      path,
      rows,
      dim,
      bytes: stats.size,
      read(start: number, count: number): Float32Array {
        if (closed) fail('an open file', 'one closed by close()');
        if (!Number.isInteger(start) || !Number.isInteger(count) || start < 0 || count < 0 || start + count > rows) throw new InvalidArgumentError({ caller: `${caller}.read`, argument: 'start, count', expected: `rows within [0, ${rows})`, received: `${start}, ${count}` });
        const values = new Float32Array(count * dim);
        const bytes = new Uint8Array(values.buffer);
        for (let done = 0; done < bytes.length; ) {
          const read = readSync(opened, bytes, done, bytes.length - done, dataOffset + start * dim * 4 + done);
          if (read === 0) fail(`${expected} bytes`, 'a file that shrank while it was read');
          done += read;
        }
        return values;
      },
      close(): void {
        if (closed) return;
        closed = true;
        closeSync(opened);
      },
    };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}
