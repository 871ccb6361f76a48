import { add, dropout as applyDropout, matMul, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { checkMemoryBudget } from '@attnkit/backends';
import { InvalidArgumentError, describeValue, formatShape, isTensorLike } from '@attnkit/errors';
import { maskedSoftmax, validateMask } from '@attnkit/masks';
import type { Scorer } from '@attnkit/scorers';
import { checkAttentionBias } from './check-attention-bias.js';
import { checkAttentionInputs } from './check-attention-inputs.js';

/** Options of {@link scaledDotProductAttention}. */
export interface AttentionOptions {
  /** Bool, `true` = may attend, broadcastable to `[B, H, T, S]` (see `validateMask`). */
  readonly mask?: Tensor | undefined;
  /**
   * Float32 added to the scores before the mask and softmax — relative-position biases, ALiBi,
   * PyTorch's float `attn_mask`: `[T, S]` or rank 4 broadcastable to `[B, H, T, S]`.
   */
  readonly bias?: Tensor | undefined;
  /** How queries meet keys. Default: `scaledDotProductScorer`, `(q / √D) · k`. */
  readonly scorer?: Scorer;
  /** Dropout rate on the attention weights, applied only when `training` (default 0). */
  readonly dropout?: number;
  readonly training?: boolean;
  /** Seed of the dropout mask, for reproducible training runs. */
  readonly seed?: number;
}

/** A scorer's output must be float32 scores `[B, H, T, S]`: anything else is the scorer's bug, named as such. */
function checkScores(scores: unknown, shape: readonly number[], caller: string): Tensor {
  const ok = isTensorLike(scores) && !scores.isDisposed && scores.dtype === 'float32' && scores.rank === 4 && scores.shape.every((d, i) => d === shape[i]);
  if (!ok) {
    throw new InvalidArgumentError({ caller, argument: 'scorer', expected: `a Scorer whose score(query, key) returns float32 scores [B, H, T, S] = ${formatShape(shape)}`, received: `a score() that returned ${describeValue(scores)}` });
  }
  return scores;
}

/** What {@link scaledDotProductAttention} returns. */
export interface AttentionResult {
  /** `[B, H, T, Dv]`. */
  readonly output: Tensor;
  /** `[B, H, T, S]`, after the mask (zeros there) and, when training, dropout. */
  readonly attentionWeights: Tensor;
}

/**
 * Attention over heads: `softmax(mask(score(q, k) + bias)) · v`. Blocked keys get exactly zero
 * weight; a query with no allowed key gets zeros (never NaN). The optional `bias` is added to the
 * scores (soft, any value); the `mask` decides which keys count at all. Sizes whose scores
 * `[B, H, T, S]` would not fit the backend's memory budget (three such tensors at once, see
 * `memoryBudget` in `@attnkit/backends`) are a `ResourceLimitError` before anything is allocated.
 *
 * `query [B, H, T, D]`, `key [B, H, S, D]`, `value [B, H, S, Dv]` → `output [B, H, T, Dv]`.
 *
 * @example
 * const { output, attentionWeights } = scaledDotProductAttention(q, k, v, { mask: causalMask(T, S) });
 * scaledDotProductAttention(q, k, v, { bias: alibi }); // alibi [1, H, T, S]
 */
export function scaledDotProductAttention(query: Tensor, key: Tensor, value: Tensor, options: AttentionOptions = {}): AttentionResult {
  return attendUnfused(query, key, value, options, 'scaledDotProductAttention');
}

/** {@link scaledDotProductAttention}, its errors naming `caller` (the variants that fall back on it). */
export function attendUnfused(query: Tensor, key: Tensor, value: Tensor, options: AttentionOptions, caller: string): AttentionResult {
  const { batch, heads, queryLength, keyLength, rate, training, scorer } = checkAttentionInputs(query, key, value, options, caller);
  checkMemoryBudget(caller, 'the attention scores', [batch, heads, queryLength, keyLength], 3); // scores, weights and a temporary at once: refused before allocating
  const target = { batch, heads, queryLength, keyLength };
  const bias = options.bias === undefined ? undefined : checkAttentionBias(options.bias, target, caller);
  let mask: Tensor | undefined;
  try {
    mask = options.mask === undefined ? undefined : validateMask(options.mask, { ...target, caller, argument: 'mask' });
    return tidy(() => {
      const scored = checkScores(scorer.score(query, key), [batch, heads, queryLength, keyLength], caller); // [B, H, T, S]
      const scores = bias === undefined ? scored : add(scored, bias); // + [B|1, H|1, T|1, S|1]
      const probabilities = maskedSoftmax(scores, mask); // [B, H, T, S]
      const attentionWeights = training && rate > 0 ? applyDropout(probabilities, rate, undefined, options.seed) : probabilities;
      return { output: matMul(attentionWeights, value), attentionWeights }; // [B, H, T, S] x [B, H, S, Dv] -> [B, H, T, Dv]
    });
  } finally {
    mask?.dispose();
    if (bias !== options.bias) bias?.dispose();
  }
}
