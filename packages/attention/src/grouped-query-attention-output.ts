import { reshape, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { groupQueryHeads } from './group-query-heads.js';
import { repeatKv } from './repeat-kv.js';
import type { AttentionOptions } from './scaled-dot-product-attention.js';
import { scaledDotProductAttentionOutput } from './scaled-dot-product-attention-output.js';

/**
 * {@link groupedQueryAttention} when only the output is needed: the same numbers, through
 * `scaledDotProductAttentionOutput`, so that on the wasm backend outside training and gradient
 * recording, with the default scorer, each key/value head and its H / Hkv query heads run as one
 * fused wasm SIMD attention that never holds the scores; elsewhere, the unfused ops with gradients.
 *
 * `query [B, H, T, D]`, `key [B, Hkv, S, D]`, `value [B, Hkv, S, Dv]` → `[B, H, T, Dv]`.
 *
 * @example
 * const context = groupedQueryAttentionOutput(q, k, v, { mask }); // decoding: q [B, H, 1, D] over a cache k, v [B, Hkv, S, D]
 */
export function groupedQueryAttentionOutput(query: Tensor, key: Tensor, value: Tensor, options: AttentionOptions = {}): Tensor {
  const caller = 'groupedQueryAttentionOutput';
  return tidy(() => {
    const grouped = groupQueryHeads(query, key, value, options, caller);
    if (grouped.route === 'repeated') return scaledDotProductAttentionOutput(query, repeatKv(key, grouped.groups), repeatKv(value, grouped.groups), grouped.options);
    const output = scaledDotProductAttentionOutput(grouped.query, key, value, grouped.options); // [B, Hkv, n·T, Dv]
    const [batch, heads, queryLength] = query.shape as [number, number, number];
    return reshape(output, [batch, heads, queryLength, value.shape[3] as number]); // [B, Hkv, n·T, Dv] -> [B, H, T, Dv]
  });
}
