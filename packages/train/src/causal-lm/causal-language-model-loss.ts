import { slice, tidy, type Scalar, type Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkObject, checkOptionKeys, describeValue, formatShape, isTensorLike } from '@attnkit/errors';
import { IGNORE_INDEX, maskedLanguageModelLoss } from '../masked-lm/masked-language-model-loss.js';

/** `[B, T]` ids or 0/1 values: nested arrays of numbers, or an int32 tensor. */
export type TokenRows = Tensor | readonly (readonly number[])[];

/** Options of {@link causalLanguageModelLoss}. */
export interface CausalLanguageModelLossOptions {
  /**
   * `[B, T]`, 1 = token, 0 = padding (Hugging Face `attention_mask`). A label counts only where the
   * mask is 1 at its position and at the position that predicts it: padding is neither a target nor
   * a context. With right padding this is exactly transformers' collator (`labels[padding] = -100`);
   * with left padding it also leaves out each row's first token, whose prediction would come from a
   * padding position (transformers would count that prediction).
   */
  readonly attentionMask?: TokenRows;
}

const CALLER = 'causalLanguageModelLoss';

/** The rows of `[B, T]` ids as numbers (one read of each), a typed error when they are not integers. */
function readRows(value: unknown, argument: string, shape: readonly number[]): number[][] {
  let rows: unknown[][];
  if (isTensorLike(value)) {
    if (value.dtype !== 'int32') throw new InvalidArgumentError({ caller: CALLER, argument, expected: `int32 ${argument === 'labels' ? 'ids' : '0/1 values'} [B, T] = ${formatShape(shape)}`, received: `a ${value.dtype} tensor ${formatShape(value.shape)}`, ...(argument === 'labels' ? { hint: 'Labels are token ids: make them with tf.tensor2d(ids, undefined, \'int32\') or pass nested arrays.' } : {}) });
    if (value.rank !== 2 || value.shape[0] !== shape[0] || value.shape[1] !== shape[1]) throw new InvalidArgumentError({ caller: CALLER, argument, expected: `[B, T] = ${formatShape(shape)}, the logits' first two dimensions`, received: formatShape(value.shape) });
    rows = value.arraySync() as number[][];
  } else {
    if (!Array.isArray(value) || !value.every((row) => Array.isArray(row))) throw new InvalidArgumentError({ caller: CALLER, argument, expected: `[B, T] = ${formatShape(shape)} nested arrays of integers or an int32 tensor`, received: describeValue(value) });
    rows = (value as unknown[][]).map((row) => Array.from(row));
    const lengths = rows.map((row) => row.length);
    if (rows.length !== shape[0] || lengths.some((n) => n !== shape[1])) throw new InvalidArgumentError({ caller: CALLER, argument, expected: `[B, T] = ${formatShape(shape)}, the logits' first two dimensions`, received: `${rows.length} rows of ${[...new Set(lengths)].join(' or ') || 0} values` });
  }
  rows.forEach((row, b) => row.forEach((v, t) => {
    if (typeof v !== 'number' || !Number.isInteger(v)) throw new InvalidArgumentError({ caller: CALLER, argument: `${argument}[${b}][${t}]`, expected: argument === 'labels' ? 'an integer token id' : '0 or 1', received: describeValue(v) });
  }));
  return rows as number[][];
}

/**
 * The causal-language-model loss of transformers' `…ForCausalLM(labels=...)` (`ForCausalLMLoss`):
 * the labels shifted left by one inside — the logits at position t predict the label at t + 1 — then
 * cross-entropy averaged over the labels that are not -100. `logits [B, T, V]` (float32, a causal
 * LM's `forward(...).logits`), `labels [B, T]` (int32 ids: usually the input ids; -100 = not
 * trained on, e.g. a prompt) → scalar. `options.attentionMask [B, T]` leaves padding out (see
 * {@link CausalLanguageModelLossOptions.attentionMask}).
 *
 * Where transformers returns NaN — no label left to average over (every label -100, or T = 1) —
 * this is an `InvalidArgumentError`, as is a label outside `[0, V)` other than -100 (PyTorch fails
 * there too; the first label, which the shift drops unread, is not checked), labels of another
 * shape, or float labels.
 *
 * @example
 * const { logits } = model.forward({ inputIds, attentionMask });                 // [B, T, V]
 * const loss = causalLanguageModelLoss(logits, inputIds, { attentionMask });    // scalar: next-token cross-entropy
 */
export function causalLanguageModelLoss(logits: Tensor, labels: TokenRows, options: CausalLanguageModelLossOptions = {}): Scalar {
  if (!isTensorLike(logits) || logits.rank !== 3 || logits.dtype !== 'float32') throw new InvalidArgumentError({ caller: CALLER, argument: 'logits', expected: 'a float32 tensor [B, T, V] (a causal LM\'s forward(...).logits)', received: describeValue(logits) });
  checkObject(options, { caller: CALLER, argument: 'options', expected: 'an object { attentionMask? }' });
  checkOptionKeys(options, ['attentionMask'], CALLER);
  const [batch, length, vocab] = logits.shape as [number, number, number];
  const ids = readRows(labels, 'labels', [batch, length]);
  const mask = options.attentionMask === undefined ? undefined : readRows(options.attentionMask, 'attentionMask', [batch, length]);
  mask?.forEach((row, b) => row.forEach((v, t) => {
    if (v !== 0 && v !== 1) throw new InvalidArgumentError({ caller: CALLER, argument: `attentionMask[${b}][${t}]`, expected: '0 or 1', received: describeValue(v) });
  }));
  // targets [B, T - 1]: the label each position predicts, -100 where it does not count
  let counted = 0;
  const targets = ids.map((row, b) => row.slice(1).map((label, t) => {
    if (label !== IGNORE_INDEX && (label < 0 || label >= vocab)) throw new InvalidArgumentError({ caller: CALLER, argument: `labels[${b}][${t + 1}]`, expected: `a token id in [0, V = ${vocab}) or -100 (not trained on)`, received: describeValue(label) });
    const counts = label !== IGNORE_INDEX && (mask === undefined || (mask[b]![t + 1] === 1 && mask[b]![t] === 1));
    if (counts) counted += 1;
    return counts ? label : IGNORE_INDEX;
  }));
  if (counted === 0) {
    throw new InvalidArgumentError({
      caller: CALLER,
      argument: 'labels',
      expected: 'at least one label after the first position that is not -100 (nor padding): the loss is a mean over them',
      received: length < 2 ? `sequences of ${length} token (nothing to predict)` : `${batch} × ${length - 1} shifted labels, none counted`,
      hint: 'transformers returns NaN for such a batch; leave it out, or label at least one token.',
    });
  }
  return tidy(() => maskedLanguageModelLoss(slice(logits, [0, 0, 0], [batch, length - 1, vocab]), targets)); // [B, T - 1, V] with [B, T - 1] targets
}
