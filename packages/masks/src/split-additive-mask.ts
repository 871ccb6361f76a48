import { maximum, notEqual, tidy, where, type Tensor } from '@tensorflow/tfjs-core';
import { checkTensor } from '@attnkit/errors';
import { maskedFillValue } from './masked-fill-value.js';

/** What {@link splitAdditiveMask} returns: the attnkit mask and bias that together act as the float mask. */
export interface SplitAdditiveMask {
  /** bool, `false` exactly where the float mask is `-Infinity` (blocked); the input's shape. */
  readonly mask: Tensor;
  /** float32, finite: the float mask with `-Infinity` → 0 and values below `maskedFillValue()` raised to it. */
  readonly bias: Tensor;
}

/**
 * Splits a float mask that PyTorch adds to the scores — a float `attn_mask` or
 * `key_padding_mask`, soft values (-0.77) and hard ones (`-inf`, `finfo.min`) alike — into the
 * attnkit pair: a bool `mask` (blocked where `-Infinity`) and an additive `bias`. Adding `bias` to the
 * scores and applying `mask` in the masked softmax gives PyTorch's probabilities; rows with every key
 * at `-inf` give zeros instead of NaN. Values below the backend's {@link maskedFillValue} (such as
 * `finfo(float32).min`) are raised to it, which changes no probability but keeps half-float WebGL
 * from overflowing. NaN stays NaN (NaN in, NaN out).
 *
 * @param additive float32, any shape (e.g. `[T, S]` or `[B, S]`)
 * @example
 * const { mask, bias } = splitAdditiveMask(tf.tensor([[0, -0.77, -Infinity]])); // mask [[true, true, false]], bias [[0, -0.77, 0]]
 */
export function splitAdditiveMask(additive: Tensor): SplitAdditiveMask {
  checkTensor(additive, { caller: 'splitAdditiveMask', argument: 'additive', dtype: 'float32', dtypeHint: 'A bool mask needs no conversion: use fromTorchBoolMask() for PyTorch bool masks.' });
  const fill = maskedFillValue();
  return tidy(() => {
    const mask = notEqual(additive, -Infinity);
    return { mask, bias: where(mask, maximum(additive, fill), 0) };
  });
}
