import { cast, greater, max, maximum, min, range, reshape, scalar, tidy, where, type Tensor } from '@tensorflow/tfjs-core';

/**
 * Per row of `mask [B, T]` (counted where > 0), the position of its first counted token → int32 `[B]`;
 * 0 for a row with none (as `argmax` of a row of zeros in PyTorch). Computed as a minimum over the
 * counted positions, not with `argMax`: tfjs-webgpu's `argMax` does not return the first of equal
 * values in long rows (a row of 5 zeros then 59 ones gives 32).
 *
 * @example
 * firstCountedPosition(tf.tensor2d([[0, 0, 1, 1]])); // [2]
 */
export function firstCountedPosition(mask: Tensor): Tensor {
  return tidy(() => {
    const length = mask.shape[1] as number;
    const positions = reshape(range(0, length, 1, 'int32'), [1, -1]); // [1, T]
    const first = min(where(greater(mask, 0), positions, scalar(length, 'int32')), 1); // [B]; T where none
    return where(greater(first, length - 1), scalar(0, 'int32'), first);
  });
}

/**
 * Per row of `mask [B, T]`, the position of its last counted token → int32 `[B]`; 0 for a row with none.
 * A maximum over the counted positions, for the reason {@link firstCountedPosition} gives.
 *
 * @example
 * lastCountedPosition(tf.tensor2d([[1, 1, 0, 0]])); // [1]
 */
export function lastCountedPosition(mask: Tensor): Tensor {
  return tidy(() => {
    const positions = reshape(range(0, mask.shape[1] as number, 1, 'int32'), [1, -1]); // [1, T]
    return cast(maximum(max(where(greater(mask, 0), positions, scalar(-1, 'int32')), 1), 0), 'int32'); // [B]; -1 where none → 0
  });
}
