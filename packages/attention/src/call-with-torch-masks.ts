import { tidy, transpose, type Tensor } from '@tensorflow/tfjs-core';
import { checkInteger, checkObject, checkOptionKeys, checkTensor, describeValue, InvalidArgumentError } from '@attnkit/errors';
import { fromTorchMasks } from './from-torch-masks.js';

/** PyTorch's encoder call options: `src_mask`, `src_key_padding_mask` and the layout of `src`. */
export interface TorchEncoderCallOptions {
  /** `[T, T]` or `[B·H, T, T]`: bool `true` = blocked, or float added to the scores (PyTorch `mask` / `src_mask`). */
  readonly mask?: Tensor | undefined;
  /** `[B, T]`: bool `true` = padding, or float added to the scores (PyTorch `src_key_padding_mask`). */
  readonly srcKeyPaddingMask?: Tensor | undefined;
  /** The layout of `src`: `[B, T, E]` (default, PyTorch `batch_first=True`) or `[T, B, E]`. */
  readonly batchFirst?: boolean;
  /** Add a float mask of only 0 and 1 to the scores as PyTorch does (default false: refused, see `fromTorchMasks`). */
  readonly additiveBinaryMasks?: boolean;
}

/**
 * Calls an attnkit encoder the way `torch.nn.TransformerEncoderLayer` / `TransformerEncoder` are
 * called: `src` in PyTorch's layout, PyTorch's masks converted (once, by `fromTorchMasks`) to an
 * attnkit mask and bias, and the output returned in the layout of `src`. Used by both modules'
 * `forwardTorch`.
 *
 * `src [B, T, E]` (or `[T, B, E]`) → the same shape.
 *
 * @example
 * callWithTorchMasks('MyEncoder.forwardTorch', src, { srcKeyPaddingMask }, numHeads, (x, mask, bias) => encoder.forward(x, { attentionMask: mask, attentionBias: bias }).lastHiddenState);
 */
export function callWithTorchMasks(
  caller: string,
  src: Tensor,
  options: TorchEncoderCallOptions,
  numHeads: number,
  forward: (x: Tensor, mask: Tensor | undefined, bias: Tensor | undefined) => Tensor,
): Tensor {
  checkObject(options, { caller: typeof caller === 'string' ? caller : 'callWithTorchMasks', argument: 'options', expected: 'an object of PyTorch-style call options' });
  if (Object.hasOwn(options, 'isCausal') || Object.hasOwn(options, 'is_causal')) {
    throw new InvalidArgumentError({
      caller,
      argument: 'isCausal',
      expected: "absent: causal attention is a 'mask' here",
      received: describeValue((options as Record<string, unknown>)['isCausal'] ?? (options as Record<string, unknown>)['is_causal']),
      hint: "Pass the causal mask itself as 'mask' ([T, T], bool true = blocked, as nn.Transformer.generate_square_subsequent_mask gives); PyTorch's is_causal is only a hint about that mask and raises without one.",
    });
  }
  checkOptionKeys(options, ['mask', 'srcKeyPaddingMask', 'batchFirst', 'additiveBinaryMasks'], caller);
  const batchFirst = options.batchFirst === undefined ? true : options.batchFirst; // null is no boolean: refused
  if (typeof batchFirst !== 'boolean') throw new InvalidArgumentError({ caller, argument: 'batchFirst', expected: 'a boolean', received: describeValue(batchFirst) });
  checkInteger(numHeads, { caller, argument: 'numHeads', min: 1 });
  if (typeof forward !== 'function') throw new InvalidArgumentError({ caller, argument: 'forward', expected: 'a function (x [B, T, E], mask, bias) => [B, T, E]', received: describeValue(forward) });
  checkTensor(src, { caller, argument: 'src', dtype: 'float32', rank: 3, shape: batchFirst ? '[B, T, E]' : '[T, B, E]' });
  return tidy(() => {
    const x = batchFirst ? src : transpose(src, [1, 0, 2]); // [T, B, E] -> [B, T, E]
    const [batch = 0, length = 0] = x.shape;
    const { mask, bias } = fromTorchMasks(caller, { attnMask: options.mask, keyPaddingMask: options.srcKeyPaddingMask, additiveBinaryMasks: options.additiveBinaryMasks }, { batch, numHeads, queryLength: length, keyLength: length });
    const output = forward(x, mask, bias); // [B, T, E]
    return batchFirst ? output : transpose(output, [1, 0, 2]); // -> [T, B, E]
  });
}
