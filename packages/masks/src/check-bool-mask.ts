import type { Tensor } from '@tensorflow/tfjs-core';
import { checkTensor, describeValue, InvalidArgumentError } from '@attnkit/errors';

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
  const ranks: unknown[] = Array.isArray(rank) ? Array.from(rank) : [rank]; // Array.from: a hole reads as undefined, refused below
  if (rank !== undefined && (ranks.length === 0 || !ranks.every((r) => Number.isInteger(r) && (r as number) >= 0))) {
    throw new InvalidArgumentError({ caller: 'checkBoolMask', argument: 'rank', expected: 'a rank (an integer ≥ 0) or a non-empty list of ranks', received: describeValue(rank) });
  }
  return checkTensor(value, { caller, argument, dtype: 'bool', dtypeHint: DTYPE_HINT, ...(rank === undefined ? {} : { rank }) });
}
