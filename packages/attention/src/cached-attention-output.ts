import type { Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkInteger, checkObject, checkTensor, formatShape } from '@attnkit/errors';
import { groupedOutput } from './grouped-query-attention-output.js';
import type { KvCacheView } from './kv-cache.js';
import type { AttentionOptions } from './scaled-dot-product-attention.js';

/**
 * Grouped-query attention of `query` over the keys and values a `KvCache` lends
 * (`cache.append(layer, key, value)`): the numbers of `groupedQueryAttentionOutput` over the view's
 * first S positions, with the same options. On wasm, outside training and gradient recording, with
 * the default scorer, a call of at most 4 query rows per key/value head (n·T ≤ 4: a decoding step)
 * small enough for one thread reads those S positions where the cache holds them
 * (`ATTENTION_ROWS_KERNEL`); any other call copies them out first. The mask and bias span S, as a
 * `KvCache` step's `attentionMask` `[B, 1, T, S]` does.
 *
 * `query [B, H, T, D]`, `view { key [B, Hkv, C, D], value [B, Hkv, C, Dv], length: S }` (C ≥ S, H a
 * multiple of Hkv) → `[B, H, T, Dv]`.
 *
 * @example
 * const step = cache.step([[1]]);
 * const view = cache.append(0, key, value);                              // key, value [1, Hkv, 1, D]
 * const context = cachedAttentionOutput(query, view, { mask: step.attentionMask }); // [1, H, 1, D]
 */
export function cachedAttentionOutput(query: Tensor, view: KvCacheView, options: AttentionOptions = {}): Tensor {
  const caller = 'cachedAttentionOutput';
  checkObject(view, { caller, argument: 'view', expected: 'a KvCacheView { key, value, length } (KvCache.append)' });
  const { key, value } = view;
  checkTensor(key, { caller, argument: 'view.key', dtype: 'float32', rank: 4, shape: '[B, Hkv, C, D]' });
  checkTensor(value, { caller, argument: 'view.value', dtype: 'float32', rank: 4, shape: '[B, Hkv, C, Dv]' });
  if (value.shape[2] !== key.shape[2]) {
    throw new InvalidArgumentError({ caller, argument: 'view.value', expected: `[B, Hkv, C, Dv] with C = ${key.shape[2]} (from 'view.key')`, received: formatShape(value.shape) });
  }
  const length = checkInteger(view.length, { caller, argument: 'view.length', min: 0, max: key.shape[2] as number });
  return groupedOutput(query, key, value, options, caller, length);
}
