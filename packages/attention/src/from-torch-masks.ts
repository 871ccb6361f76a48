import { add, all, any, equal, getBackend, logicalAnd, logicalOr, maximum, reshape, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { checkBoolean, checkInteger, checkObject, checkTensor, formatShape, InvalidArgumentError } from '@attnkit/errors';
import { fromTorchBoolMask, maskedFillValue, mergeMasks, splitAdditiveMask } from '@attnkit/masks';

/** PyTorch's two attention masks, as `nn.MultiheadAttention` and `nn.TransformerEncoderLayer` take them. */
export interface TorchMasks {
  /** `[B, S]`: bool `true` = padding (ignored key), or float added to the scores. */
  readonly keyPaddingMask?: Tensor | undefined;
  /** `[T, S]` or `[B·H, T, S]`: bool `true` = blocked, or float added to the scores (soft values or `-inf`). */
  readonly attnMask?: Tensor | undefined;
  /**
   * Take a float mask whose values are 0 and 1 (both present) as PyTorch does, added to the scores (a near
   * no-op). Default false: such a mask is almost always a keep/pad mask given as floats, so it is
   * refused with a typed error instead of being silently ignored.
   */
  readonly additiveBinaryMasks?: boolean | undefined;
}

/** A PyTorch mask as the attnkit pair: bool (`true` = blocked) → mask; float (added to the scores) → mask (`-inf` = blocked) + bias. */
function converted(torchMask: Tensor): { mask: Tensor; bias?: Tensor } {
  return torchMask.dtype === 'bool' ? { mask: fromTorchBoolMask(torchMask) } : splitAdditiveMask(torchMask);
}

/** Backends whose tensors live in CPU memory, where reading one value back costs nothing. */
const CPU_RESIDENT = new Set(['cpu', 'wasm']);

/**
 * True when a float mask holds only 0 and 1, both present: a keep/pad mask given as floats, which
 * PyTorch would add to the scores. All zeros or all ones is accepted: added or read as keep/pad, it
 * changes nothing either way (softmax ignores a constant shift).
 */
function isBinaryFloatMask(torchMask: Tensor): boolean {
  if (torchMask.dtype === 'bool' || torchMask.size === 0) return false;
  if (!CPU_RESIDENT.has(getBackend())) return false; // webgl / webgpu: no synchronous read-back in a forward pass (see fromTorchMasks)
  const binary = tidy(() => logicalAnd(all(logicalOr(equal(torchMask, 0), equal(torchMask, 1))), logicalAnd(any(equal(torchMask, 1)), any(equal(torchMask, 0)))));
  try {
    return binary.dataSync()[0] === 1;
  } finally {
    binary.dispose();
  }
}

/** Refuses a 0/1 float mask unless `additiveBinaryMasks` says adding it is meant. */
function refuseBinaryFloatMask(caller: string, argument: string, torchMask: Tensor, paddingMask: boolean): void {
  if (!isBinaryFloatMask(torchMask)) return;
  throw new InvalidArgumentError({
    caller,
    argument,
    expected: `a bool mask (true = ${paddingMask ? 'padding' : 'blocked'}) or a float mask added to the scores (0 = attend, -Infinity = blocked)`,
    received: 'a float32 mask of only 0 and 1 (both present), which PyTorch adds to the scores: 1 would raise those scores by 1 and block nothing',
    hint: `Convert it: ${paddingMask ? 'tf.equal(mask, 0) for an attention mask (1 = keep), tf.cast(mask, "bool") for a padding mask (1 = padding)' : 'tf.cast(mask, "bool") when 1 means blocked'}; or pass additiveBinaryMasks: true if adding 0 and 1 to the scores is what you mean.`,
  });
}

/**
 * Checks PyTorch's `key_padding_mask` and `attn_mask` against the call's sizes and converts them,
 * in one place, to attnkit's pair: a bool `mask` (`true` = may attend, `[B|1, H|1, T, S]`) and a
 * float `bias` added to the scores (`[B|1, H|1, T, S]`), either `undefined` when not needed. Bool
 * masks block; float masks are added, soft values included, as PyTorch adds them (`-inf` blocks).
 * A float mask of 0s and 1s (both present) is refused (it would block nothing) unless `additiveBinaryMasks` is true;
 * checking it reads one value back, which happens on cpu and wasm only: on webgl and webgpu the check
 * is skipped (a synchronous read-back would stall the GPU inside a forward pass, and on WebGPU it
 * can break later WebGL programs in the same page), so develop on cpu or wasm to have it.
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
  const { keyPaddingMask, attnMask, additiveBinaryMasks } = checkObject(masks, { caller: typeof caller === 'string' ? caller : 'fromTorchMasks', argument: 'masks', expected: 'an object { keyPaddingMask?, attnMask? }' });
  const { batch, numHeads, queryLength, keyLength } = checkObject(sizes, { caller: typeof caller === 'string' ? caller : 'fromTorchMasks', argument: 'sizes', expected: 'the sizes { batch, numHeads, queryLength, keyLength }' });
  [batch, numHeads, queryLength, keyLength].forEach((size, i) => checkInteger(size, { caller: 'fromTorchMasks', argument: `sizes.${['batch', 'numHeads', 'queryLength', 'keyLength'][i]}`, min: 0 }));
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
  if (!checkBoolean(additiveBinaryMasks, { caller, argument: 'additiveBinaryMasks', fallback: false })) {
    if (keyPaddingMask !== undefined) refuseBinaryFloatMask(caller, 'keyPaddingMask', keyPaddingMask, true);
    if (attnMask !== undefined) refuseBinaryFloatMask(caller, 'attnMask', attnMask, false);
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
