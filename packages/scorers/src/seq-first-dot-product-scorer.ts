import { matMul, tidy, transpose, type Tensor } from '@tensorflow/tfjs-core';
import { assertBackendReady } from '@attnkit/backends';
import { InvalidArgumentError, checkTensor, formatShape } from '@attnkit/errors';
import type { Scorer } from './scorer.js';

/**
 * Dot-product scores in the sequence-first layout, the `einsum('ibhd,jbhd->ijbh')` of labml,
 * built from transposes and one batched matMul (tfjs-backend-wasm has no Einsum kernel).
 *
 * `query [T, B, H, D]`, `key [S, B, H, D]` → `[T, S, B, H]`.
 *
 * @example
 * seqFirstDotProductScorer.score(query, key); // [4, 6, 2, 3] for query [4, 2, 3, 5], key [6, 2, 3, 5]
 */
export const seqFirstDotProductScorer: Scorer = {
  name: 'seqFirstDotProductScorer',
  score(query: Tensor, key: Tensor): Tensor {
    const caller = 'seqFirstDotProductScorer';
    assertBackendReady(caller);
    checkTensor(query, { caller, argument: 'query', dtype: 'float32', rank: 4, shape: '[T, B, H, D]' });
    checkTensor(key, { caller, argument: 'key', dtype: 'float32', rank: 4, shape: '[S, B, H, D]' });
    const [, b, h, d] = query.shape;
    if (key.shape[1] !== b || key.shape[2] !== h || key.shape[3] !== d) {
      throw new InvalidArgumentError({ caller, argument: 'key', expected: `[S, B, H, D] = [S, ${b}, ${h}, ${d}] like 'query'`, received: formatShape(key.shape) });
    }
    return tidy(() => {
      const q = transpose(query, [1, 2, 0, 3]); // [T, B, H, D] -> [B, H, T, D]
      const k = transpose(key, [1, 2, 0, 3]); // [S, B, H, D] -> [B, H, S, D]
      return transpose(matMul(q, k, false, true), [2, 3, 0, 1]); // [B, H, T, S] -> [T, S, B, H]
    });
  },
};
