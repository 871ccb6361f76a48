import { reshape, slice, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { checkBoolean } from '@attnkit/errors';
import { fusedAttention, kernelRoute } from '@attnkit/kernels';
import { scaledDotProductScorer } from '@attnkit/scorers';
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
  return groupedOutput(query, key, value, options, 'groupedQueryAttentionOutput');
}

/**
 * `groupedQueryAttentionOutput` for `caller`, over only the first `attended` positions S of `key` and
 * `value` `[B, Hkv, C, D]` when given (a `KvCacheView`): `fusedAttention` with `keyLength` where the
 * fused kernel applies (it reads them where they lie for a decoding step), else copied out first.
 * Internal (`cachedAttentionOutput` shares it).
 */
export function groupedOutput(query: Tensor, key: Tensor, value: Tensor, options: AttentionOptions, caller: string, attended?: number): Tensor {
  return tidy(() => {
    const grouped = groupQueryHeads(query, key, value, options, caller, attended); // checks every input
    const held = key.shape[2] as number;
    const length = attended ?? held;
    const first = (x: Tensor) => (length === held ? x : slice(x, 0, [x.shape[0] as number, x.shape[1] as number, length, x.shape[3] as number])); // [B, Hkv, C, D] -> [B, Hkv, S, D]
    if (grouped.route === 'repeated') return scaledDotProductAttentionOutput(query, repeatKv(first(key), grouped.groups), repeatKv(first(value), grouped.groups), grouped.options);
    const [batch, heads, queryLength] = query.shape as [number, number, number];
    const inPlace = length < held && !checkBoolean(options.training, { caller, argument: 'training', fallback: false })
      && (options.scorer === undefined || options.scorer === scaledDotProductScorer) && kernelRoute('fusedAttention', [query, key, value]).useKernel;
    const output = inPlace // [B, Hkv, n·T, Dv]
      ? fusedAttention(grouped.query, key, value, { mask: grouped.options.mask, bias: grouped.options.bias, keyLength: length }) // scale √(1 / D), as scaledDotProductScorer
      : scaledDotProductAttentionOutput(grouped.query, first(key), first(value), grouped.options);
    return reshape(output, [batch, heads, queryLength, value.shape[3] as number]); // [B, Hkv, n·T, Dv] -> [B, H, T, Dv]
  });
}
