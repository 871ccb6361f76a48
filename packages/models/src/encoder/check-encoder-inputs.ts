import { Variable, tensor2d, type Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkTensor, describeValue, formatShape } from '@attnkit/errors';
import type { EncoderConfig } from './encoder-config.js';

/** The int32 tensors `checkIds` has read and found in range (never a `Variable`, whose values may change): an embeddings module's `forward` does not read them again. */
const CHECKED = new WeakSet<Tensor>();

/** Token ids, 0/1 attention mask or token types: `[B, T]` nested arrays or an int32 tensor. */
export type IdsInput = Tensor | readonly (readonly number[])[];

/**
 * Turns one `[B, T]` input into an int32 tensor after checking its shape and that every value is
 * an integer in `[0, limit)` (reading the values: `B · T` integers). Returns whether it was created
 * here (the caller then disposes it).
 */
export function checkIds(caller: string, argument: string, input: IdsInput, limit: number, shape?: readonly number[]): { ids: Tensor; created: boolean } {
  let values: ArrayLike<number>;
  let rows: number;
  let width: number;
  let created = false;
  let ids: Tensor;
  if (Array.isArray(input)) {
    rows = input.length;
    width = Array.isArray(input[0]) ? (input[0] as number[]).length : -1;
    (input as unknown[]).forEach((row, b) => {
      if (!Array.isArray(row) || row.length !== width) {
        throw new InvalidArgumentError({ caller, argument: `${argument}[${b}]`, expected: `a row of ${width} ids like row 0`, received: describeValue(row) });
      }
    });
    if (rows === 0 || width <= 0) throw new InvalidArgumentError({ caller, argument, expected: 'a non-empty [B, T] batch (B ≥ 1, T ≥ 1)', received: `[${rows}, ${Math.max(width, 0)}]` });
    values = (input as number[][]).flat();
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (typeof v !== 'number' || !Number.isInteger(v)) {
        throw new InvalidArgumentError({ caller, argument: `${argument}[${Math.floor(i / width)}][${i % width}]`, expected: 'an integer', received: describeValue(v) });
      }
    }
    ids = tensor2d(values as number[], [rows, width], 'int32');
    created = true;
  } else {
    ids = checkTensor(input, { caller, argument, dtype: 'int32', rank: 2, shape: '[B, T]' });
    [rows = 0, width = 0] = ids.shape;
    if (rows === 0 || width === 0) throw new InvalidArgumentError({ caller, argument, expected: 'a non-empty [B, T] batch (B ≥ 1, T ≥ 1)', received: formatShape(ids.shape) });
    values = ids.dataSync();
  }
  try {
    if (shape !== undefined && (rows !== shape[0] || width !== shape[1])) {
      throw new InvalidArgumentError({ caller, argument, expected: `the shape of inputIds ${formatShape(shape)}`, received: formatShape([rows, width]) });
    }
    for (let i = 0; i < values.length; i++) {
      const v = values[i] as number;
      if (v < 0 || v >= limit) {
        throw new InvalidArgumentError({ caller, argument: `${argument}[${Math.floor(i / width)}][${i % width}]`, expected: `an id in [0, ${limit})`, received: String(v) });
      }
    }
  } catch (error) {
    if (created) ids.dispose();
    throw error;
  }
  if (!(ids instanceof Variable)) CHECKED.add(ids);
  return { ids, created };
}

/** The `[B, T]` sequence limit an encoder's position table puts on its inputs. */
export function checkSequenceLength(caller: string, config: EncoderConfig, length: number): void {
  if (length > config.maxSequenceLength) {
    throw new InvalidArgumentError({
      caller,
      argument: 'inputIds',
      expected: config.positionOffset === 0 || config.positionEmbeddingType !== 'absolute' // relative and rotary: the distance or sinusoidal table's reach
        ? `at most max_position_embeddings = ${config.maxPositionEmbeddings} tokens per sequence`
        : `at most max_position_embeddings - (pad_token_id + 1) = ${config.maxSequenceLength} tokens per sequence`,
      received: `${length} tokens`,
      hint: 'Truncate when tokenizing (truncation: true, maxLength).',
    });
  }
}

/**
 * The ids an embeddings module's `forward` is given: `inputIds` int32 `[B, T]` with ids below the
 * vocabulary and T within the position table, `tokenTypeIds` (when given) int32 of the same shape
 * below the type vocabulary. Ids the model's `forward` has already checked are not read again;
 * others are read once here (`B · T` integers).
 *
 * @example
 * checkEmbeddingIds('BertEmbeddings.forward', config, inputIds, tokenTypeIds);
 */
export function checkEmbeddingIds(caller: string, config: EncoderConfig, inputIds: unknown, tokenTypeIds?: unknown): void {
  const ids = checkTensor(inputIds, { caller, argument: 'inputIds', dtype: 'int32', rank: 2, shape: '[B, T]' });
  if (!CHECKED.has(ids)) checkIds(caller, 'inputIds', ids, config.vocabSize);
  checkSequenceLength(caller, config, ids.shape[1] as number);
  if (tokenTypeIds === undefined) return;
  const types = checkTensor(tokenTypeIds, { caller, argument: 'tokenTypeIds', dtype: 'int32', rank: 2, shape: '[B, T]' });
  if (!CHECKED.has(types) || types.shape[0] !== ids.shape[0] || types.shape[1] !== ids.shape[1]) checkIds(caller, 'tokenTypeIds', types, Math.max(config.typeVocabSize, 1), ids.shape);
}
