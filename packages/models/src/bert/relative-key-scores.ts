import { add, gather, matMul, reshape, slice, tensor1d, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { checkTensor, InvalidArgumentError, formatShape } from '@attnkit/errors';

/** The relative position types of transformers' (≤ 4.57) BERT-like self-attention. */
export type RelativeKeyType = 'relative_key' | 'relative_key_query';

/** Flat indexes into `[T, 2T − 1]` rows: row `l` (query side) or `r` (key side) of pair (l, r), column `l − r + T − 1`. */
function pairIndexes(length: number, side: 'query' | 'key'): Tensor {
  const width = 2 * length - 1;
  const out = new Int32Array(length * length);
  for (let l = 0; l < length; l++) {
    for (let r = 0; r < length; r++) out[l * length + r] = (side === 'query' ? l : r) * width + l - r + length - 1;
  }
  return tensor1d(out, 'int32');
}

/**
 * The relative position scores of transformers' (≤ 4.57) `BertSelfAttention` with
 * `position_embedding_type` `relative_key` — `q[b, h, l] · E[l − r + M − 1]` — and
 * `relative_key_query`, which adds `k[b, h, r] · E[l − r + M − 1]`; E is the layer's
 * `distance_embedding` `[2M − 1, D]`. Unscaled: transformers adds them to `q · k` before dividing by
 * √D. Computed without einsum (which wasm lacks) or a `[T, T, D]` table: each query (key) against
 * the 2T − 1 distances it can have, `[B·H·T, 2T − 1]`, then the pair's distance gathered. T ≤ M.
 *
 * `query`, `key` `[B, H, T, D]`, `table` `[2M − 1, D]` → `[B, H, T, T]`.
 *
 * @example
 * const scores = relativeKeyScores(q, k, layer.attention.get('self').distanceEmbedding!.weight, 'relative_key'); // [B, H, T, T]
 */
export function relativeKeyScores(query: Tensor, key: Tensor, table: Tensor, type: RelativeKeyType): Tensor {
  const caller = 'relativeKeyScores';
  checkTensor(query, { caller, argument: 'query', dtype: 'float32', rank: 4, shape: '[B, H, T, D]' });
  checkTensor(key, { caller, argument: 'key', dtype: 'float32', rank: 4, shape: '[B, H, T, D]' });
  checkTensor(table, { caller, argument: 'table', dtype: 'float32', rank: 2, shape: '[2M - 1, D]' });
  const [batch, heads, length, headDim] = query.shape as [number, number, number, number];
  if (key.shape.some((size, i) => size !== query.shape[i])) throw new InvalidArgumentError({ caller, argument: 'key', expected: `the shape of 'query', ${formatShape(query.shape)}`, received: formatShape(key.shape) });
  const rows = table.shape[0] as number;
  const maxPositions = (rows + 1) / 2;
  if (table.shape[1] !== headDim || !Number.isInteger(maxPositions) || length > maxPositions) {
    throw new InvalidArgumentError({ caller, argument: 'table', expected: `[2M - 1, D] with D = ${headDim} and M ≥ T = ${length}`, received: formatShape(table.shape), hint: 'The distance table reaches sequences of at most max_position_embeddings tokens.' });
  }
  if (type !== 'relative_key' && type !== 'relative_key_query') throw new InvalidArgumentError({ caller, argument: 'type', expected: '"relative_key" or "relative_key_query"', received: JSON.stringify(type) ?? String(type) });
  return tidy(() => {
    const width = 2 * length - 1;
    const window = slice(table, [maxPositions - length, 0], [width, headDim]); // distances -(T-1) .. T-1: [2T - 1, D]
    const against = (x: Tensor, side: 'query' | 'key') => {
      const all = matMul(reshape(x, [batch * heads * length, headDim]), window, false, true); // [B·H·T, D] x [D, 2T - 1] -> [B·H·T, 2T - 1]
      const picked = gather(reshape(all, [batch * heads, length * width]), pairIndexes(length, side), 1); // [B·H, T·T]
      return reshape(picked, [batch, heads, length, length]); // [B·H, T·T] -> [B, H, T, T]
    };
    const scores = against(query, 'query');
    return type === 'relative_key' ? scores : add(scores, against(key, 'key'));
  });
}
