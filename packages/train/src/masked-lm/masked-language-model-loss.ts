import { cast, div, logSoftmax, mul, neg, oneHot, reshape, sum, tensor1d, tidy, type Scalar, type Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, describeValue, formatShape, isTensorLike } from '@attnkit/errors';

/** The label of a position that is not predicted (PyTorch's `ignore_index`, transformers' convention). */
export const IGNORE_INDEX = -100;

/** Nested lists as one list, in order; a hole is an `undefined` entry. */
function flatten(value: readonly unknown[]): unknown[] {
  return Array.from(value).flatMap((item) => (Array.isArray(item) ? flatten(item) : [item]));
}

/**
 * The masked-language-model loss of transformers' `BertForMaskedLM`: cross-entropy between the
 * logits and the labels, averaged over the positions whose label is not -100. `logits [..., V]`
 * with `labels [...]` (ids, -100 = not predicted; numbers, nested arrays or an int32 tensor) →
 * scalar. Give only the predicted rows (`[N, V]` with their `N` targets) to save the vocabulary
 * projection and softmax of every other position: the value is the same. At least one position must be labelled.
 *
 * @example
 * const { logits } = mlm.forward(batch, { positions });           // [N, V]
 * const loss = maskedLanguageModelLoss(logits, targets);           // scalar
 * const full = maskedLanguageModelLoss(mlm.forward(batch).logits, labels); // [B, T, V] with [B, T] labels: the same value
 */
export function maskedLanguageModelLoss(logits: Tensor, labels: Tensor | readonly number[] | readonly (readonly number[])[]): Scalar {
  const caller = 'maskedLanguageModelLoss';
  if (!isTensorLike(logits) || logits.isDisposed || logits.rank < 1 || logits.dtype !== 'float32') throw new InvalidArgumentError({ caller, argument: 'logits', expected: 'a float32 tensor [..., V]', received: describeValue(logits) });
  const vocab = logits.shape.at(-1) as number;
  const rows = logits.size / Math.max(vocab, 1);
  let flat: number[];
  if (isTensorLike(labels)) {
    if (labels.isDisposed || labels.dtype !== 'int32') throw new InvalidArgumentError({ caller, argument: 'labels', expected: 'int32 ids', received: labels.isDisposed ? 'a disposed tensor' : `a ${labels.dtype} tensor` });
    flat = Array.from(labels.dataSync());
  } else {
    if (!Array.isArray(labels)) throw new InvalidArgumentError({ caller, argument: 'labels', expected: 'ids (numbers, nested arrays or an int32 tensor)', received: describeValue(labels) });
    flat = flatten(labels) as number[]; // holes read as undefined (then refused), not skipped as flat() would
  }
  const expectedShape = logits.shape.slice(0, -1);
  if (flat.length !== rows) throw new InvalidArgumentError({ caller, argument: 'labels', expected: `${rows} labels, one per row of logits ${formatShape(logits.shape)} (shape ${formatShape(expectedShape)})`, received: `${flat.length}` });
  let count = 0;
  const targets = flat.map((label, i) => {
    if (label === IGNORE_INDEX) return -1; // oneHot gives -1 a row of zeros: the position adds nothing
    if (!Number.isInteger(label) || label < 0 || label >= vocab) throw new InvalidArgumentError({ caller, argument: `labels (position ${i})`, expected: `an id in [0, ${vocab}) or -100 (not predicted)`, received: describeValue(label) });
    count += 1;
    return label;
  });
  if (count === 0) throw new InvalidArgumentError({ caller, argument: 'labels', expected: 'at least one label that is not -100 (a loss averaged over no position is undefined)', received: `${flat.length} labels, all -100` });
  return tidy(() => {
    const logProbabilities = logSoftmax(reshape(logits, [rows, vocab])); // [..., V] -> [M, V]
    // a one-hot product, not gather: its gradient is elementwise on every backend (gather's fails to compile on webgl for some index counts)
    const chosen = sum(mul(logProbabilities, cast(oneHot(tensor1d(targets, 'int32'), vocab), 'float32'))); // Σ log p(target) over the labelled rows
    return neg(div(chosen, count)) as Scalar;
  });
}
