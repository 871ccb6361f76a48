import { broadcastTo, matMul, reshape, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { assertBackendReady } from '@attnkit/backends';
import { InvalidArgumentError, checkTensor, formatShape } from '@attnkit/errors';
import { maskedSoftmax, validateMask } from '@attnkit/masks';
import type { Scorer } from './scorer.js';

/** What {@link attentionPooling} returns. */
export interface PoolingResult {
  /** `[B, E]`: the attention-weighted sum of the values (zeros for a sequence with no valid key). */
  readonly output: Tensor;
  /** `[B, S]`: the weights, zero at masked positions. */
  readonly attentionWeights: Tensor;
}

/**
 * Single-query attention pooling: one learned query scores every position, a masked
 * softmax over S turns scores into weights, and the weighted sum of the values is the pooled
 * vector — a sentence embedding that padding cannot change.
 *
 * @param scorer any {@link Scorer}; it receives `query [B, 1, Dq]` and `key = values [B, S, E]`
 * @param values `[B, S, E]`
 * @param mask bool, broadcastable to `[B, 1, 1, S]` (e.g. `paddingMask(lengths, S)`), or `undefined`
 * @param query `[Dq]`, `[1, Dq]` or `[B, Dq]` — usually a trainable `tf.Variable`
 * @example
 * const query = tf.variable(tf.randomNormal([6]));
 * const { output } = attentionPooling(new AdditiveScorer({ queryDim: 6, keyDim: 6, hiddenDim: 6 }), x, paddingMask([4, 2], 4), query);
 */
export function attentionPooling(scorer: Scorer, values: Tensor, mask: Tensor | undefined, query: Tensor): PoolingResult {
  const caller = 'attentionPooling';
  assertBackendReady(caller);
  checkTensor(values, { caller, argument: 'values', dtype: 'float32', rank: 3, shape: '[B, S, E]' });
  checkTensor(query, { caller, argument: 'query', dtype: 'float32', rank: [1, 2], shape: '[Dq], [1, Dq] or [B, Dq]' });
  const [batch = 0, keyLength = 0, embedDim = 0] = values.shape;
  const queryRows = query.rank === 1 ? 1 : (query.shape[0] as number);
  if (queryRows !== 1 && queryRows !== batch) {
    throw new InvalidArgumentError({ caller, argument: 'query', expected: `[Dq], [1, Dq] or [B, Dq] with B = ${batch}`, received: formatShape(query.shape) });
  }
  const queryDim = query.shape[query.rank - 1] as number;
  const placed = mask === undefined ? undefined : validateMask(mask, { batch, heads: 1, queryLength: 1, keyLength, caller, argument: 'mask' });
  try {
    return tidy(() => {
      const queries = broadcastTo(reshape(query, [queryRows, 1, queryDim]), [batch, 1, queryDim]); // -> [B, 1, Dq]
      const scores = scorer.score(queries, values); // [B, 1, S]
      const keep = placed === undefined ? undefined : reshape(placed, [placed.shape[0] as number, 1, keyLength]); // [B|1, 1, 1, S] -> [B|1, 1, S]
      const weights = maskedSoftmax(scores, keep); // [B, 1, S]
      return {
        output: reshape(matMul(weights, values), [batch, embedDim]), // [B, 1, S] x [B, S, E] -> [B, E]
        attentionWeights: reshape(weights, [batch, keyLength]), // [B, S]
      };
    });
  } finally {
    placed?.dispose();
  }
}
