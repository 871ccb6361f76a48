import { reshape, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { groupQueryHeads } from './group-query-heads.js';
import { repeatKv } from './repeat-kv.js';
import { attendUnfused, type AttentionOptions, type AttentionResult } from './scaled-dot-product-attention.js';

/**
 * Grouped-query and multi-query attention (`num_key_value_heads` < `num_attention_heads`), equal to
 * transformers' eager attention with `repeat_kv`: query head h attends with key/value head
 * `floor(h / (H / Hkv))`. The mask (bool, true = may attend) and the bias (added to the scores) are
 * those of `scaledDotProductAttention`, broadcastable to `[B, H, T, S]`, and so is the result —
 * computed without copying keys and values: each key/value head meets its H / Hkv query heads in one
 * `scaledDotProductAttention` over `n·T` query rows. With Hkv = H it is `scaledDotProductAttention`;
 * with a custom scorer, keys and values are repeated (`repeatKv`) so the scorer sees every head.
 *
 * `query [B, H, T, D]`, `key [B, Hkv, S, D]`, `value [B, Hkv, S, Dv]` → `output [B, H, T, Dv]`,
 * `attentionWeights [B, H, T, S]`.
 *
 * @example
 * const { output, attentionWeights } = groupedQueryAttention(q, k, v, { mask: decoderMask(T, S, { padding }) }); // H = 8, Hkv = 2
 */
export function groupedQueryAttention(query: Tensor, key: Tensor, value: Tensor, options: AttentionOptions = {}): AttentionResult {
  const caller = 'groupedQueryAttention';
  return tidy(() => {
    const grouped = groupQueryHeads(query, key, value, options, caller);
    const [batch, heads, queryLength] = query.shape as [number, number, number];
    if (grouped.route === 'repeated') {
      const { output, attentionWeights } = attendUnfused(query, repeatKv(key, grouped.groups), repeatKv(value, grouped.groups), grouped.options, caller);
      return { output, attentionWeights };
    }
    const { output, attentionWeights } = attendUnfused(grouped.query, key, value, grouped.options, caller); // [B, Hkv, n·T, Dv], [B, Hkv, n·T, S]
    return {
      output: reshape(output, [batch, heads, queryLength, value.shape[3] as number]), // [B, Hkv, n·T, Dv] -> [B, H, T, Dv]
      attentionWeights: reshape(attentionWeights, [batch, heads, queryLength, key.shape[2] as number]), // [B, Hkv, n·T, S] -> [B, H, T, S]
    };
  });
}
