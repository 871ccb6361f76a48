import { reshape, slice, tensor2d, tidy, type Tensor, type Tensor2D } from '@tensorflow/tfjs-core';
import { checkInteger, checkTensor, describeValue, InvalidArgumentError, isTensorLike } from '@attnkit/errors';

/**
 * Embeddings read a chunk of rows at a time — a `.npy` file streamed from disk (`npyEmbeddings` of
 * `@attnkit/cli`), a database cursor — so a corpus larger than memory can be searched:
 * `read(start, count)` gives rows `start .. start + count - 1` as one float32 array of
 * `count · dim` values, row after row.
 *
 * @example
 * const rows: EmbeddingRows = { rows: 3, dim: 2, read: (start, count) => all.subarray(start * 2, (start + count) * 2) };
 */
export interface EmbeddingRows {
  readonly rows: number;
  readonly dim: number;
  read(start: number, count: number): Float32Array | Promise<Float32Array>;
}

/** A search input as {@link readRows} reads it: its size, and its rows chunk by chunk. */
export interface RowSource {
  readonly rows: number;
  readonly dim: number;
  /** Rows `start .. start + count - 1` as a new tensor `[count, dim]`. */
  readonly read: (start: number, count: number) => Promise<Tensor2D>;
}

/**
 * A tensor `[N, E]` (or `[E]`, one row, when `vector` is allowed) or {@link EmbeddingRows}, checked,
 * as a {@link RowSource}. A reader's chunk of the wrong type or length is an error naming it.
 *
 * @example
 * const corpus = rowSource(corpusEmbeddings, { caller: 'semanticSearch', argument: 'corpusEmbeddings' });
 */
export function rowSource(value: Tensor | EmbeddingRows, { caller, argument, vector = false }: { caller: string; argument: string; vector?: boolean }): RowSource {
  if (isTensorLike(value)) {
    const tensor = checkTensor(value, { caller, argument, dtype: 'float32', rank: vector ? [1, 2] : 2, shape: vector ? '[N, E] or [E]' : '[N, E]' });
    const [rows, dim] = tensor.rank === 1 ? [1, tensor.shape[0] as number] : (tensor.shape as [number, number]);
    return {
      rows,
      dim,
      read: async (start, count) => tidy(() => {
        const matrix = tensor.rank === 1 ? reshape(tensor, [1, dim]) : tensor; // [E] -> [1, E]
        return (start === 0 && count === rows ? matrix.clone() : slice(matrix, [start, 0], [count, dim])) as Tensor2D; // [count, E]
      }),
    };
  }
  if (typeof value !== 'object' || value === null || typeof (value as EmbeddingRows).read !== 'function') {
    throw new InvalidArgumentError({ caller, argument, expected: `a float32 tensor ${vector ? '[N, E] or [E]' : '[N, E]'} or embedding rows { rows, dim, read(start, count) }`, received: describeValue(value) });
  }
  const rows = checkInteger(value.rows, { caller, argument: `${argument}.rows`, min: 0, max: 2 ** 40 });
  const dim = checkInteger(value.dim, { caller, argument: `${argument}.dim`, min: 1, max: 2 ** 20 });
  return {
    rows,
    dim,
    read: async (start, count) => {
      const values = await value.read(start, count);
      if (!(values instanceof Float32Array) || values.length !== count * dim) {
        throw new InvalidArgumentError({ caller, argument: `${argument}.read(${start}, ${count})`, expected: `a Float32Array of ${count} × ${dim} = ${count * dim} values`, received: ArrayBuffer.isView(values) ? `a ${values.constructor.name} of ${(values as Float32Array).length} values` : describeValue(values) });
      }
      return tensor2d(values, [count, dim]);
    },
  };
}
