import { concat, reshape, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { checkInteger, checkTensor } from '@attnkit/errors';

/**
 * Repeats each key/value head `numRepeats` times in place, as transformers' `repeat_kv`
 * (`torch.repeat_interleave(x, numRepeats, dim=1)`): head h of the result is head
 * `floor(h / numRepeats)` of `x`, so query head h of grouped-query attention meets key/value head
 * `floor(h / (H / Hkv))`. Differentiable (the gradient sums the copies). `groupedQueryAttention`
 * does not need it (it groups the queries instead of copying keys and values); it is the definition,
 * and the route for a custom scorer.
 *
 * `x [B, Hkv, S, D]` → `[B, Hkv · numRepeats, S, D]`.
 *
 * @example
 * repeatKv(key, 4); // [2, 2, 7, 64] -> [2, 8, 7, 64]
 */
export function repeatKv(x: Tensor, numRepeats: number): Tensor {
  const caller = 'repeatKv';
  checkTensor(x, { caller, argument: 'x', rank: 4, shape: '[B, Hkv, S, D]' });
  checkInteger(numRepeats, { caller, argument: 'numRepeats', min: 1 });
  if (numRepeats === 1) return x.clone();
  const [batch, heads, length, width] = x.shape as [number, number, number, number];
  return tidy(() => {
    const flat = reshape(x, [batch, heads, 1, length * width]); // [B, Hkv, S, D] -> [B, Hkv, 1, S·D]
    const copies = concat(Array.from({ length: numRepeats }, () => flat), 2); // [B, Hkv, n, S·D]
    return reshape(copies, [batch, heads * numRepeats, length, width]); // [B, Hkv, n, S·D] -> [B, Hkv·n, S, D]
  });
}
