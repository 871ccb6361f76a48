import { reshape, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkTensor, formatShape } from '@attnkit/backends';
import { fromAdditiveMask, fromTorchBoolMask, mergeMasks } from '@attnkit/masks';
import type { MultiHeadAttentionResult } from './multi-head-attention-forward.js';
import type { MultiHeadAttention } from './multi-head-attention.js';

/** PyTorch's `nn.MultiheadAttention.forward` options, in camelCase. */
export interface TorchCallOptions {
  /** `[B, S]`: bool `true` = padding (ignored key), or float additive. */
  readonly keyPaddingMask?: Tensor | undefined;
  /** `[T, S]` or `[B·H, T, S]`: bool `true` = blocked, or float additive (0 / large negative). */
  readonly attnMask?: Tensor | undefined;
  /** Return attention weights (default true, as PyTorch). */
  readonly needWeights?: boolean;
  /** Average the weights over heads (default true, as PyTorch). */
  readonly averageAttnWeights?: boolean;
}

/** A PyTorch mask (bool: `true` = blocked; float: additive) in the attnkit convention. */
function converted(mask: Tensor): Tensor {
  return mask.dtype === 'bool' ? fromTorchBoolMask(mask) : fromAdditiveMask(mask);
}

/**
 * Calls `mha` the way `nn.MultiheadAttention(batch_first=True)` is called and returns what it
 * returns: output `[B, T, E]` and, with `needWeights`, weights `[B, T, S]` (averaged) or
 * `[B, H, T, S]`. Rows PyTorch returns as NaN (every key blocked) come back as zeros.
 *
 * @example
 * const { output, attentionWeights } = mha.callTorch(x, x, x, { keyPaddingMask, needWeights: true });
 */
export function torchStyleCall(mha: MultiHeadAttention, query: Tensor, key: Tensor, value: Tensor, options: TorchCallOptions = {}): MultiHeadAttentionResult {
  const caller = 'MultiHeadAttention.callTorch';
  if (mha.config.layout !== 'batch-first') {
    throw new InvalidArgumentError({ caller, argument: 'layout', expected: "a 'batch-first' layer (PyTorch batch_first=True)", received: `'${mha.config.layout}'`, hint: 'Use call() with seq-first masks [T, S, B] instead.' });
  }
  const { numHeads } = mha.config;
  const [batch = 0, queryLength = 0] = query.shape;
  const keyLength = key.shape[1] as number;
  const { keyPaddingMask, attnMask } = options;
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
  const mask = tidy(() =>
    mergeMasks(
      keyPaddingMask === undefined ? undefined : reshape(converted(keyPaddingMask), [batch, 1, 1, keyLength]), // [B, S] -> [B, 1, 1, S]
      attnMask === undefined ? undefined : attnMask.rank === 2 ? converted(attnMask) : reshape(converted(attnMask), [batch, numHeads, queryLength, keyLength]), // [B·H, T, S] -> [B, H, T, S]
    ),
  );
  try {
    const returnWeights = options.needWeights === false ? 'none' : options.averageAttnWeights === false ? 'per-head' : 'averaged';
    return mha.call(query, key, value, { attentionMask: mask, returnWeights });
  } finally {
    mask?.dispose();
  }
}
