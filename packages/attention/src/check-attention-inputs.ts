import type { Tensor } from '@tensorflow/tfjs-core';
import { assertBackendReady } from '@attnkit/backends';
import { InvalidArgumentError, checkBoolean, checkInteger, checkOptionKeys, checkTensor, describeValue, formatShape } from '@attnkit/errors';
import { checkScorer, scaledDotProductScorer, type Scorer } from '@attnkit/scorers';
import type { AttentionOptions } from './scaled-dot-product-attention.js';

/** The keys of {@link AttentionOptions}: any other key (a mask passed as `attentionMask`) is refused, never ignored. */
const OPTION_KEYS = ['mask', 'bias', 'scorer', 'dropout', 'training', 'seed'] as const;

/** What {@link checkAttentionInputs} read from the inputs and options. */
export interface CheckedAttentionInputs {
  readonly batch: number;
  readonly heads: number;
  readonly queryLength: number;
  readonly keyLength: number;
  readonly rate: number;
  readonly training: boolean;
  readonly scorer: Scorer;
}

/**
 * The boundary checks of scaled dot-product attention, shared by `scaledDotProductAttention` and
 * `scaledDotProductAttentionOutput`: option keys, a ready backend, float32 rank-4 `query [B, H, T, D]`,
 * `key [B, H, S, D]`, `value [B, H, S, Dv]` (B, H, S agreeing), the dropout rate, `training`,
 * `seed` and the scorer. Mask and bias are checked where they are placed.
 *
 * @example
 * const { batch, heads, queryLength, keyLength } = checkAttentionInputs(q, k, v, options, 'scaledDotProductAttention');
 */
export function checkAttentionInputs(query: Tensor, key: Tensor, value: Tensor, options: AttentionOptions, caller: string): CheckedAttentionInputs {
  checkOptionKeys(options, OPTION_KEYS, caller);
  assertBackendReady(caller);
  checkTensor(query, { caller, argument: 'query', dtype: 'float32', rank: 4, shape: '[B, H, T, D]' });
  checkTensor(key, { caller, argument: 'key', dtype: 'float32', rank: 4, shape: '[B, H, S, D]' });
  checkTensor(value, { caller, argument: 'value', dtype: 'float32', rank: 4, shape: '[B, H, S, Dv]' });
  const [batch = 0, heads = 0, queryLength = 0] = query.shape;
  const keyLength = key.shape[2] as number;
  if (value.shape[0] !== batch || value.shape[1] !== heads || value.shape[2] !== keyLength) {
    throw new InvalidArgumentError({
      caller,
      argument: 'value',
      expected: `[B, H, S, Dv] with B, H, S = ${batch}, ${heads}, ${keyLength} (from 'query' and 'key')`,
      received: formatShape(value.shape),
    });
  }
  const rate = options.dropout === undefined ? 0 : options.dropout;
  if (typeof rate !== 'number' || !(rate >= 0 && rate < 1)) {
    throw new InvalidArgumentError({ caller, argument: 'dropout', expected: 'a rate in [0, 1)', received: typeof rate === 'number' ? String(rate) : describeValue(rate) });
  }
  const training = checkBoolean(options.training, { caller, argument: 'training', fallback: false });
  if (options.seed !== undefined) checkInteger(options.seed, { caller, argument: 'seed' });
  const scorer = options.scorer === undefined ? scaledDotProductScorer : checkScorer(options.scorer, caller);
  return { batch, heads, queryLength, keyLength, rate, training, scorer };
}
