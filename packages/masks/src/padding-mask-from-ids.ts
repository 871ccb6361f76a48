import { tensor4d, type Tensor2D, type Tensor4D } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkTensor, describeValue } from '@attnkit/errors';

/**
 * Padding mask from a Hugging Face style `attention_mask` (1 = real token, 0 = padding).
 *
 * @param attentionMask `[B, S]` of 0/1 values: an int32, float32 or bool tensor, or an array of rows (arrays or typed arrays)
 * @returns bool `[B, 1, 1, S]`
 * @example
 * paddingMaskFromIds([[1, 1, 0], [1, 0, 0]]); // shape [2, 1, 1, 3]
 */
export function paddingMaskFromIds(attentionMask: Tensor2D | readonly (readonly number[] | ArrayLike<number>)[]): Tensor4D {
  const caller = 'paddingMaskFromIds';
  let rows: number;
  let width: number;
  let values: ArrayLike<unknown>;
  const isRow = (row: unknown): row is ArrayLike<unknown> => Array.isArray(row) || (ArrayBuffer.isView(row) && !(row instanceof DataView));
  if (Array.isArray(attentionMask)) {
    // one read of every row and value: a hole is undefined (refused at its own index), typed-array rows are rows
    const nested: unknown[] = Array.from(attentionMask as ArrayLike<unknown>);
    const flat: unknown[] = [];
    width = 0;
    nested.forEach((row, b) => {
      const items = isRow(row) ? Array.from(row) : undefined;
      if (b === 0) width = items?.length ?? 0;
      if (items === undefined || items.length !== width) {
        throw new InvalidArgumentError({ caller, argument: `attentionMask[${b}]`, expected: `a row of ${width} values like row 0`, received: describeValue(row) });
      }
      for (const item of items) flat.push(item); // no spread: rows may be long
    });
    rows = nested.length;
    values = flat;
  } else {
    const ids = checkTensor(attentionMask, { caller, argument: 'attentionMask', dtype: ['int32', 'float32', 'bool'], rank: 2, shape: '[B, S]' });
    [rows = 0, width = 0] = ids.shape;
    values = ids.dataSync();
  }
  if (rows === 0 || width === 0) {
    throw new InvalidArgumentError({ caller, argument: 'attentionMask', expected: 'a non-empty [B, S] mask (B ≥ 1, S ≥ 1)', received: `[${rows}, ${width}]` });
  }
  const keep = new Uint8Array(rows * width);
  for (let i = 0; i < keep.length; i++) {
    const v = values[i];
    if (v !== 0 && v !== 1) {
      throw new InvalidArgumentError({
        caller,
        argument: `attentionMask[${Math.floor(i / width)}][${i % width}]`,
        expected: '0 (padding) or 1 (token)',
        received: describeValue(v),
      });
    }
    keep[i] = v;
  }
  return tensor4d(keep, [rows, 1, 1, width], 'bool'); // [B, S] -> [B, 1, 1, S]
}
