import type { Tensor } from '@tensorflow/tfjs-core';
import { checkBoolean, checkOptionKeys, checkTensor, describeValue, InvalidArgumentError } from '@attnkit/errors';
import { fromTorchMasks, type TorchMasks } from './from-torch-masks.js';
import type { AttentionCallOptions, MultiHeadAttentionResult } from './multi-head-attention-forward.js';
import type { ResolvedAttentionConfig } from './multi-head-attention-config.js';

/** What {@link torchStyleCall} needs of a `MultiHeadAttention`. */
export interface AttentionCallable {
  readonly config: ResolvedAttentionConfig;
  forward(query: Tensor, key: Tensor, value: Tensor, options: AttentionCallOptions): MultiHeadAttentionResult;
}

/** PyTorch's `nn.MultiheadAttention.forward` options, in camelCase. */
export interface TorchCallOptions extends TorchMasks {
  /** Return attention weights (default true, as PyTorch). */
  readonly needWeights?: boolean;
  /** Average the weights over heads (default true, as PyTorch). */
  readonly averageAttnWeights?: boolean;
}

/**
 * Calls `mha` the way `nn.MultiheadAttention(batch_first=True)` is called and returns what it
 * returns: output `[B, T, E]` and, with `needWeights`, weights `[B, T, S]` (averaged) or
 * `[B, H, T, S]`. Bool masks block (`true` = blocked); float masks are added to the scores, soft
 * values included, as PyTorch adds them. Rows PyTorch returns as NaN (every key blocked) come back as zeros.
 *
 * @example
 * const { output, attentionWeights } = mha.forwardTorch(x, x, x, { keyPaddingMask, needWeights: true });
 */
export function torchStyleCall(mha: AttentionCallable, query: Tensor, key: Tensor, value: Tensor, options: TorchCallOptions = {}): MultiHeadAttentionResult {
  const caller = 'MultiHeadAttention.forwardTorch';
  if (typeof (mha as { config?: unknown } | null)?.config !== 'object') throw new InvalidArgumentError({ caller, argument: 'mha', expected: 'a MultiHeadAttention layer', received: describeValue(mha) });
  if (mha.config.layout !== 'batch-first') {
    throw new InvalidArgumentError({ caller, argument: 'layout', expected: "a 'batch-first' layer (PyTorch batch_first=True)", received: `'${mha.config.layout}'`, hint: 'Use forward() with seq-first masks [T, S, B] instead.' });
  }
  checkOptionKeys(options, ['keyPaddingMask', 'attnMask', 'additiveBinaryMasks', 'needWeights', 'averageAttnWeights'], caller);
  const needWeights = checkBoolean(options.needWeights, { caller, argument: 'needWeights', fallback: true });
  const averageAttnWeights = checkBoolean(options.averageAttnWeights, { caller, argument: 'averageAttnWeights', fallback: true });
  checkTensor(query, { caller, argument: 'query', dtype: 'float32', rank: 3, shape: '[B, T, E]' });
  checkTensor(key, { caller, argument: 'key', dtype: 'float32', rank: 3, shape: '[B, S, keyDim]' });
  const { numHeads } = mha.config;
  const [batch = 0, queryLength = 0] = query.shape;
  const keyLength = key.shape[1] as number;
  const { mask, bias } = fromTorchMasks(caller, options, { batch, numHeads, queryLength, keyLength });
  try {
    const returnWeights = !needWeights ? 'none' : !averageAttnWeights ? 'per-head' : 'averaged';
    return mha.forward(query, key, value, { attentionMask: mask, attentionBias: bias, returnWeights });
  } finally {
    mask?.dispose();
    bias?.dispose();
  }
}
