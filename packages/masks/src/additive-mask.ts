import { tensor, type Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkOptionKeys, checkTensor, describeValue } from '@attnkit/errors';

/**
 * Converts an additive float mask (0 = attend; a large negative value such as `-inf`, `-1e9` or
 * `finfo(float32).min` = blocked), as PyTorch float `attn_mask`s and Hugging Face extended masks
 * are, to the attnkit bool convention. A value that is neither 0 nor ≤ `threshold` is a bias, not
 * a mask, and is rejected rather than guessed.
 *
 * @param options.threshold the largest value read as "blocked" (default -1e4): a number ≤ -1 (a threshold
 *   near or above 0 would read soft bias values as blocked)
 * @returns bool, same shape
 * @example
 * fromAdditiveMask(tf.tensor([[0, -Infinity], [0, 0]])); // [[true, false], [true, true]]
 */
export function fromAdditiveMask(additive: Tensor, options: { readonly threshold?: number } = {}): Tensor {
  const caller = 'fromAdditiveMask';
  const { threshold = -1e4 } = checkOptionKeys(options, ['threshold'], caller);
  if (typeof threshold !== 'number' || Number.isNaN(threshold) || threshold > -1) {
    throw new InvalidArgumentError({ caller, argument: 'threshold', expected: 'a number ≤ -1 (the largest value read as blocked)', received: describeValue(threshold), ...(typeof threshold === 'number' ? { hint: 'A threshold near or above 0 would read soft bias values as blocked.' } : {}) });
  }
  const values = checkTensor(additive, { caller, argument: 'additive', dtype: 'float32', dtypeHint: 'A bool mask needs no conversion.' }).dataSync();
  const keep = new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (v !== 0 && !(v <= threshold)) {
      throw new InvalidArgumentError({
        caller,
        argument: 'additive',
        expected: `0 (attend) or ≤ ${threshold} (blocked) everywhere`,
        received: `${v} at flat index ${i}`,
        hint: 'Soft biases (ALiBi, relative positions) are not masks; add them to the scores instead.',
      });
    }
    keep[i] = v === 0 ? 1 : 0;
  }
  return tensor(keep, additive.shape, 'bool');
}
