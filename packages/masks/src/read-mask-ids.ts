import type { Tensor2D } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkTensor, describeValue } from '@attnkit/errors';

/** A Hugging Face `attention_mask` read into numbers: `values[b · length + s]` is 1 (token) or 0 (padding). */
export interface MaskIds {
  readonly batch: number;
  readonly length: number;
  readonly values: Uint8Array;
}

/**
 * Reads a Hugging Face style `attention_mask` (1 = token, 0 = padding) `[B, S]` — an int32, float32 or
 * bool tensor (one synchronous read), or rows of numbers (arrays or typed arrays) — checking that it
 * is non-empty, rectangular and only 0/1. The one reader of such masks (`paddingMaskFromIds`, the
 * attention package's position ids and KV cache).
 *
 * @example
 * readMaskIds([[0, 1, 1]], 'positionIdsFromMask'); // { batch: 1, length: 3, values: Uint8Array [0, 1, 1] }
 */
export function readMaskIds(attentionMask: Tensor2D | readonly (readonly number[] | ArrayLike<number>)[], caller: string, argument = 'attentionMask'): MaskIds {
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
        throw new InvalidArgumentError({ caller, argument: `${argument}[${b}]`, expected: b === 0 ? 'a row of 0/1 values (a list or typed array)' : `a row of ${width} values like row 0`, received: describeValue(row) });
      }
      for (const item of items) flat.push(item); // no spread: rows may be long
    });
    rows = nested.length;
    values = flat;
  } else {
    const ids = checkTensor(attentionMask, { caller, argument, dtype: ['int32', 'float32', 'bool'], rank: 2, shape: '[B, S]' });
    [rows = 0, width = 0] = ids.shape;
    values = ids.dataSync();
  }
  if (rows === 0 || width === 0) {
    throw new InvalidArgumentError({ caller, argument, expected: 'a non-empty [B, S] mask (B ≥ 1, S ≥ 1)', received: `[${rows}, ${width}]` });
  }
  const keep = new Uint8Array(rows * width);
  for (let i = 0; i < keep.length; i++) {
    const v = values[i];
    if (v !== 0 && v !== 1) {
      throw new InvalidArgumentError({ caller, argument: `${argument}[${Math.floor(i / width)}][${i % width}]`, expected: '0 (padding) or 1 (token)', received: describeValue(v) });
    }
    keep[i] = v;
  }
  return { batch: rows, length: width, values: keep };
}
