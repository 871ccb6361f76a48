import { add, maximum, reshape, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { checkObject, checkTensor, formatShape, InvalidArgumentError } from '@attnkit/errors';
import { fromTorchBoolMask, maskedFillValue, mergeMasks, splitAdditiveMask } from '@attnkit/masks';

/** PyTorch's two attention masks, as `nn.MultiheadAttention` and `nn.TransformerEncoderLayer` take them. */
export interface TorchMasks {
  /** `[B, S]`: bool `true` = padding (ignored key), or float added to the scores. */
  readonly keyPaddingMask?: Tensor | undefined;
  /** `[T, S]` or `[B·H, T, S]`: bool `true` = blocked, or float added to the scores (soft values or `-inf`). */
  readonly attnMask?: Tensor | undefined;
}

/** A PyTorch mask as the attnkit pair: bool (`true` = blocked) → mask; float (added to the scores) → mask (`-inf` = blocked) + bias. */
function converted(torchMask: Tensor): { mask: Tensor; bias?: Tensor } {
  return torchMask.dtype === 'bool' ? { mask: fromTorchBoolMask(torchMask) } : splitAdditiveMask(torchMask);
}

/**
 * Checks PyTorch's `key_padding_mask` and `attn_mask` against the call's sizes and converts them,
 * in one place, to attnkit's pair: a bool `mask` (`true` = may attend, `[B|1, H|1, T, S]`) and a
 * float `bias` added to the scores (`[B|1, H|1, T, S]`), either `undefined` when not needed. Bool
 * masks block; float masks are added, soft values included, as PyTorch adds them (`-inf` blocks).
 * The caller disposes both.
 *
 * @example
 * const { mask, bias } = fromTorchMasks('myLayer', { keyPaddingMask }, { batch: 2, numHeads: 4, queryLength: 5, keyLength: 5 });
 */
export function fromTorchMasks(
  caller: string,
  masks: TorchMasks,
  sizes: { readonly batch: number; readonly numHeads: number; readonly queryLength: number; readonly keyLength: number },
): { mask: Tensor | undefined; bias: Tensor | undefined } {
  const { keyPaddingMask, attnMask } = checkObject(masks, { caller: typeof caller === 'string' ? caller : 'fromTorchMasks', argument: 'masks', expected: 'an object { keyPaddingMask?, attnMask? }' });
  const { batch, numHeads, queryLength, keyLength } = checkObject(sizes, { caller: typeof caller === 'string' ? caller : 'fromTorchMasks', argument: 'sizes', expected: 'the sizes { batch, numHeads, queryLength, keyLength }' });
  if (keyPaddingMask !== undefined) {
    checkTensor(keyPaddingMask, { caller, argument: 'keyPaddingMask', dtype: ['bool', 'float32'], rank: 2, shape: '[B, S]' });
    if (keyPaddingMask.shape[0] !== batch || keyPaddingMask.shape[1] !== keyLength) {
      throw new InvalidArgumentError({ caller, argument: 'keyPaddingMask', expected: `[B, S] = ${formatShape([batch, keyLength])}`, received: formatShape(keyPaddingMask.shape) });
    }
  }
  if (attnMask !== undefined) {
    checkTensor(attnMask, { caller, argument: 'attnMask', dtype: ['bool', 'float32'], rank: [2, 3], shape: '[T, S] or [B·H, T, S]' });
    const expected = attnMask.rank === 2 ? [queryLength, keyLength] : [batch * numHeads, queryLength, keyLength];
    if (formatShape(attnMask.shape) !== formatShape(expected)) {
      throw new InvalidArgumentError({ caller, argument: 'attnMask', expected: `${attnMask.rank === 2 ? '[T, S]' : '[B·H, T, S]'} = ${formatShape(expected)}`, received: formatShape(attnMask.shape) });
    }
  }
  return tidy(() => {
    const padding = keyPaddingMask === undefined ? undefined : converted(keyPaddingMask);
    const attn = attnMask === undefined ? undefined : converted(attnMask);
    const toHeads = (x: Tensor): Tensor => (x.rank === 3 ? reshape(x, [batch, numHeads, queryLength, keyLength]) : reshape(x, [1, 1, queryLength, keyLength])); // [B·H, T, S] -> [B, H, T, S]; [T, S] -> [1, 1, T, S] (PyTorch's 2-D attn_mask is never [B, S])
    const paddingShape = [batch, 1, 1, keyLength]; // [B, S] -> [B, 1, 1, S]
    const bools = [padding === undefined ? undefined : reshape(padding.mask, paddingShape), attn === undefined ? undefined : toHeads(attn.mask)];
    const biases = [padding?.bias === undefined ? undefined : reshape(padding.bias, paddingShape), attn?.bias === undefined ? undefined : toHeads(attn.bias)].filter((b) => b !== undefined);
    const merged = mergeMasks(...bools);
    const summed = biases.length === 0 ? undefined : biases.length === 1 ? biases[0]! : maximum(add(biases[0]!, biases[1]!), maskedFillValue()); // two large negatives must not sum past half-float range
    return { mask: merged, bias: summed };
  });
}
