import type { Tensor } from '@tensorflow/tfjs-core';
import { checkTensor } from '@attnkit/errors';

const DTYPE_HINT =
  'attnkit masks are bool, true = may attend. Convert PyTorch bool masks (True = blocked) with ' +
  'fromTorchBoolMask(), additive 0/-inf masks with fromAdditiveMask(), 0/1 attention_mask ids with paddingMaskFromIds().';

/**
 * Checks that `value` is a live bool tensor (the one mask convention), with a hint for the usual
 * wrong conventions.
 *
 * @example
 * const mask = checkBoolMask(attentionMask, 'maskedSoftmax', 'mask');
 */
export function checkBoolMask(value: unknown, caller: string, argument = 'mask', rank?: number | readonly number[]): Tensor {
  return checkTensor(value, { caller, argument, dtype: 'bool', dtypeHint: DTYPE_HINT, ...(rank === undefined ? {} : { rank }) });
}
