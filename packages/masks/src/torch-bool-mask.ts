import { logicalNot, type Tensor } from '@tensorflow/tfjs-core';
import { checkBoolMask } from './check-bool-mask.js';

/**
 * Converts a PyTorch bool mask (`key_padding_mask`, bool `attn_mask`: `True` = blocked) to the
 * attnkit convention (`true` = may attend). Shapes are kept; place them with `validateMask`.
 *
 * @example
 * fromTorchBoolMask(keyPaddingMask); // [B, S], true where the token is real
 */
export function fromTorchBoolMask(torchMask: Tensor): Tensor {
  return logicalNot(checkBoolMask(torchMask, 'fromTorchBoolMask', 'torchMask'));
}

/**
 * Converts an attnkit mask (`true` = may attend) to PyTorch's bool convention (`True` = blocked).
 *
 * @example
 * toTorchBoolMask(paddingMask([2, 3], 3)); // true at the padding
 */
export function toTorchBoolMask(mask: Tensor): Tensor {
  return logicalNot(checkBoolMask(mask, 'toTorchBoolMask', 'mask'));
}
