import { reshape, tile, type Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkOptionKeys, checkTensor, formatShape } from '@attnkit/errors';
import { validateMask } from '@attnkit/masks';
import { scaledDotProductScorer } from '@attnkit/scorers';
import { checkAttentionBias } from './check-attention-bias.js';
import type { AttentionOptions } from './scaled-dot-product-attention.js';

/** The keys of `AttentionOptions`, refused otherwise. */
const OPTION_KEYS = ['mask', 'bias', 'scorer', 'dropout', 'training', 'seed'];

/** What {@link groupQueryHeads} makes of a grouped-query call. */
export interface GroupedQueryHeads {
  /** n = H / Hkv, the query heads per key/value head. */
  readonly groups: number;
  /** `'grouped'`: queries regrouped to `[B, Hkv, n·T, D]`; `'repeated'`: keys and values must be repeated (a custom scorer sees every head). */
  readonly route: 'grouped' | 'repeated';
  /** `[B, Hkv, n·T, D]` when grouped; the query as given otherwise. */
  readonly query: Tensor;
  /** The options with the mask and bias regrouped like the query (`[B|1, Hkv|1, n·T|1, S]`). */
  readonly options: AttentionOptions;
}

/** A mask or bias `[b, h, t, s]` (h ∈ {1, H}, t ∈ {1, T}) regrouped like the queries: `[b, Hkv|1, n·T|1, s]`. */
function regroup(x: Tensor, heads: number, groups: number, queryLength: number): Tensor {
  const [b, h, t, s] = x.shape as [number, number, number, number];
  if (h === 1 && t === 1) return x; // broadcasts over every head and query as it is
  if (h === 1) return tile(x, [1, 1, groups, 1]); // [b, 1, T, S] -> [b, 1, n·T, S]: row g·T + t is row t
  const rows = t === 1 ? tile(x, [1, 1, queryLength, 1]) : x; // [b, H, 1, S] -> [b, H, T, S]
  return reshape(rows, [b, heads / groups, groups * queryLength, s]); // [b, H, T, S] -> [b, Hkv, n·T, S]
}

/**
 * The boundary of grouped-query attention, shared by `groupedQueryAttention` and
 * `groupedQueryAttentionOutput`: checks `query [B, H, T, D]`, `key [B, Hkv, S, D]`,
 * `value [B, Hkv, S, Dv]` (H a multiple of Hkv), the mask and bias against `[B, H, T, S]`, then
 * regroups the queries so that each key/value head meets its n query heads in one attention over
 * `n·T` rows — the keys and values are never copied. Call it inside `tidy` (it makes tensors).
 * `attended` (S ≤ C, a `KvCacheView`'s length) is the positions the mask and bias span when only the
 * first S of the keys' C are attended.
 *
 * @example
 * const { query, options: grouped } = groupQueryHeads(q, k, v, options, 'groupedQueryAttention'); // [2, 8, 5, 64] -> [2, 2, 20, 64]
 */
export function groupQueryHeads(query: Tensor, key: Tensor, value: Tensor, options: AttentionOptions, caller: string, attended?: number): GroupedQueryHeads {
  checkOptionKeys(options, OPTION_KEYS, caller);
  checkTensor(query, { caller, argument: 'query', dtype: 'float32', rank: 4, shape: '[B, H, T, D]' });
  checkTensor(key, { caller, argument: 'key', dtype: 'float32', rank: 4, shape: '[B, Hkv, S, D]' });
  checkTensor(value, { caller, argument: 'value', dtype: 'float32', rank: 4, shape: '[B, Hkv, S, Dv]' });
  const [batch, heads, queryLength, headDim] = query.shape as [number, number, number, number];
  const [keyHeads, keyLength] = [key.shape[1] as number, key.shape[2] as number];
  if (key.shape[0] !== batch || key.shape[3] !== headDim || heads % keyHeads !== 0) {
    throw new InvalidArgumentError({
      caller,
      argument: 'key',
      expected: `[B, Hkv, S, D] with B = ${batch}, D = ${headDim} (from 'query') and Hkv dividing H = ${heads}`,
      received: formatShape(key.shape),
      ...(heads % keyHeads === 0 ? {} : { hint: 'Each key/value head serves H / Hkv query heads (num_attention_heads / num_key_value_heads).' }),
    });
  }
  if (value.shape[0] !== batch || value.shape[1] !== keyHeads || value.shape[2] !== keyLength) {
    throw new InvalidArgumentError({ caller, argument: 'value', expected: `[B, Hkv, S, Dv] with B, Hkv, S = ${batch}, ${keyHeads}, ${keyLength} (from 'query' and 'key')`, received: formatShape(value.shape) });
  }
  const groups = heads / keyHeads;
  const target = { batch, heads, queryLength, keyLength: attended ?? keyLength }; // a KvCacheView: its first S of C positions
  const mask = options.mask === undefined ? undefined : validateMask(options.mask, { ...target, caller, argument: 'mask' }); // [B|1, H|1, T|1, S|1]
  const bias = options.bias === undefined ? undefined : checkAttentionBias(options.bias, target, caller); // rank 4
  const custom = options.scorer !== undefined && options.scorer !== scaledDotProductScorer;
  if (groups === 1 || custom) return { groups, route: groups === 1 ? 'grouped' : 'repeated', query, options: { ...options, mask, bias } };
  const placed = (x: Tensor | undefined) => (x === undefined ? undefined : regroup(x, heads, groups, queryLength));
  return {
    groups,
    route: 'grouped',
    query: reshape(query, [batch, keyHeads, groups * queryLength, headDim]), // [B, H, T, D] -> [B, Hkv, n·T, D]
    options: { ...options, mask: placed(mask), bias: placed(bias) },
  };
}
