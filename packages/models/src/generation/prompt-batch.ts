import { InvalidArgumentError, describeValue, formatShape, isTensorLike } from '@attnkit/errors';
import { readMaskIds } from '@attnkit/masks';
import type { Tensor } from '@tensorflow/tfjs-core';
import type { GenerateInput, GenerationTokenizer } from './generate-options.js';

/** Prompts as a left-padded batch, the layout generation needs. */
export interface PromptBatch {
  /** Each row's prompt, without padding. */
  readonly prompts: number[][];
  /** `[B, T]`: padding first, then the prompt. */
  readonly inputIds: number[][];
  /** `[B, T]`: 0 on padding, 1 on the prompt. */
  readonly attentionMask: number[][];
}

/**
 * `generate`'s input as a left-padded batch: token ids (`[T]`, ragged rows, or a padded `[B, T]` with
 * its `attentionMask`, whose padding must be on the left) or texts (encoded one by one with
 * `tokenizer`, special tokens as its post-processor adds them, never truncated). Every id is checked
 * against the vocabulary; an empty prompt, a text without a tokenizer, or right padding is a typed error.
 *
 * @example
 * promptBatch([[5, 6, 7], [8]], undefined, 0, 320, 'generate'); // inputIds [[5, 6, 7], [0, 0, 8]], attentionMask [[1, 1, 1], [0, 0, 1]]
 */
export function promptBatch(input: GenerateInput, tokenizer: GenerationTokenizer | undefined, padTokenId: number, vocabSize: number, caller: string): PromptBatch {
  const prompts = promptsOf(input, tokenizer, caller);
  prompts.forEach((prompt, b) => {
    if (prompt.length === 0) throw new InvalidArgumentError({ caller, argument: `input[${b}]`, expected: 'a prompt of at least one token', received: 'no token' });
    prompt.forEach((id, t) => {
      if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id >= vocabSize) throw new InvalidArgumentError({ caller, argument: `input[${b}][${t}]`, expected: `a token id in [0, vocab_size = ${vocabSize})`, received: describeValue(id) });
    });
  });
  let width = 0;
  for (const prompt of prompts) width = Math.max(width, prompt.length);
  return {
    prompts,
    inputIds: prompts.map((prompt) => [...new Array<number>(width - prompt.length).fill(padTokenId), ...prompt]),
    attentionMask: prompts.map((prompt) => [...new Array<number>(width - prompt.length).fill(0), ...prompt.map(() => 1)]),
  };
}

function promptsOf(input: GenerateInput, tokenizer: GenerationTokenizer | undefined, caller: string): number[][] {
  const texts = typeof input === 'string' ? [input] : Array.isArray(input) && input.length > 0 && input.every((x) => typeof x === 'string') ? (input as string[]) : undefined;
  if (texts !== undefined) {
    if (tokenizer === undefined) throw new InvalidArgumentError({ caller, argument: 'input', expected: 'token ids, or texts with options.tokenizer', received: `${texts.length === 1 ? 'a text' : `${texts.length} texts`} and no tokenizer`, hint: 'Pass tokenizer: await loadTokenizer(folder) (@attnkit/tokenizers).' });
    return texts.map((text) => [...(tokenizer.encode([text], { padding: false, truncation: false }).inputIds[0] ?? [])]);
  }
  if (Array.isArray(input) && input.length > 0 && input.every((x) => typeof x === 'number')) return [[...(input as number[])]];
  if (Array.isArray(input) && input.length > 0 && input.every((row) => Array.isArray(row))) return (input as number[][]).map((row) => [...row]);
  if (typeof input === 'object' && input !== null && !Array.isArray(input) && 'inputIds' in input) return paddedPrompts(input, caller);
  throw new InvalidArgumentError({ caller, argument: 'input', expected: 'a text, a list of texts (with a tokenizer), a prompt of token ids [T], prompts [B][T_b], or { inputIds [B, T], attentionMask? }', received: describeValue(input) });
}

/** The prompts of a left-padded `{ inputIds, attentionMask }` batch. */
function paddedPrompts({ inputIds, attentionMask }: { readonly inputIds: unknown; readonly attentionMask?: unknown }, caller: string): number[][] {
  const ids = readIdRows(inputIds, caller, 'inputIds');
  const width = ids[0]?.length ?? 0;
  if (ids.length === 0 || width === 0 || ids.some((row) => row.length !== width)) throw new InvalidArgumentError({ caller, argument: 'inputIds', expected: 'a non-empty [B, T] batch', received: describeValue(inputIds) });
  if (attentionMask === undefined) return ids;
  const mask = readMaskIds(attentionMask as Parameters<typeof readMaskIds>[0], caller, 'attentionMask');
  if (mask.batch !== ids.length || mask.length !== width) throw new InvalidArgumentError({ caller, argument: 'attentionMask', expected: `the shape of inputIds ${formatShape([ids.length, width])}`, received: formatShape([mask.batch, mask.length]) });
  return ids.map((row, b) => {
    const flags = mask.values.subarray(b * width, (b + 1) * width);
    const first = flags.indexOf(1);
    if (first >= 0 && flags.subarray(first).includes(0)) throw new InvalidArgumentError({ caller, argument: `attentionMask[${b}]`, expected: 'left padding (zeros, then ones): generation appends after the last position', received: `[${flags.join(', ')}]`, hint: "Pad on the left (transformers' padding_side='left'), or pass the prompts as ragged rows." });
    return first < 0 ? [] : row.slice(first);
  });
}

/** `[B, T]` ids from rows or an int32 tensor (one read). */
function readIdRows(value: unknown, caller: string, argument: string): number[][] {
  if (isTensorLike(value)) {
    const t = value as Tensor;
    if (t.rank !== 2 || t.dtype !== 'int32') throw new InvalidArgumentError({ caller, argument, expected: 'an int32 tensor [B, T]', received: `${t.dtype} ${formatShape(t.shape)}` });
    const [rows, width] = t.shape as [number, number];
    const values = Array.from(t.dataSync());
    return Array.from({ length: rows }, (_, b) => values.slice(b * width, (b + 1) * width));
  }
  if (!Array.isArray(value) || !value.every((row) => Array.isArray(row))) throw new InvalidArgumentError({ caller, argument, expected: '[B, T] rows of token ids or an int32 tensor', received: describeValue(value) });
  return (value as number[][]).map((row) => [...row]);
}
