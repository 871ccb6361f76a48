import { cast, engine, getBackend, getKernel, mul, softmax, tidy, where, type Tensor } from '@tensorflow/tfjs-core';
import { MASKED_SOFTMAX_KERNEL, assertBackendReady } from '@attnkit/backends';
import { InvalidArgumentError, broadcastShapes, checkTensor, formatShape } from '@attnkit/errors';
import { checkBoolMask } from './check-bool-mask.js';
import { maskedFillValue } from './masked-fill-value.js';

/**
 * Softmax over the last axis (keys) that gives blocked positions exactly zero weight. Blocked
 * scores are replaced with the backend-safe {@link maskedFillValue} — never `-Infinity` — and the
 * probabilities are multiplied by the mask, so a row with no allowed key comes back as zeros (as
 * PyTorch's `_safe_softmax`), never NaN or a uniform row. On wasm, a mask whose last axis is S runs
 * as one fused SIMD kernel (`MASKED_SOFTMAX_KERNEL` from `@attnkit/backends`, blocked entries left out
 * of the row's max and sum), with the same results.
 *
 * @param scores float32 `[..., T, S]`, e.g. `[B, H, T, S]`
 * @param mask bool, broadcastable to `scores` (e.g. `[B, 1, 1, S]`); `undefined` = plain softmax
 * @returns float32, the shape of `scores`
 * @example
 * maskedSoftmax(scores, mergeMasks(paddingMask(lengths, S), causalMask(T, S)));
 */
export function maskedSoftmax(scores: Tensor, mask?: Tensor): Tensor {
  const caller = 'maskedSoftmax';
  assertBackendReady(caller);
  checkTensor(scores, { caller, argument: 'scores', dtype: 'float32', rank: [1, 2, 3, 4, 5, 6], shape: '[..., T, S]' });
  if (mask === undefined) return softmax(scores);
  checkBoolMask(mask, caller);
  const shape = broadcastShapes(scores.shape, mask.shape, caller, 'mask');
  if (shape.length !== scores.rank || shape.some((size, i) => size !== scores.shape[i])) {
    throw new InvalidArgumentError({
      caller,
      argument: 'mask',
      expected: `broadcastable to the scores' shape ${formatShape(scores.shape)} without enlarging it`,
      received: formatShape(mask.shape),
    });
  }
  if (mask.shape.at(-1) === scores.shape.at(-1) && getKernel(MASKED_SOFTMAX_KERNEL, getBackend()) !== undefined) {
    return engine().runKernel(MASKED_SOFTMAX_KERNEL, { scores, mask }) as Tensor; // one fused pass (wasm)
  }
  return tidy(() => {
    const filled = where(mask, scores, maskedFillValue()); // blocked -> large finite negative
    return mul(softmax(filled), cast(mask, 'float32')); // exact zeros; fully blocked rows -> 0
  });
}
