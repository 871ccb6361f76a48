import { cast, div, expandDims, matMul, maximum, mul, norm, slice, squeeze, sum, tidy, transpose, type Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkTensor, formatShape } from '@attnkit/errors';

/**
 * Mask-aware mean of the token vectors: padding does not count. A sequence with no token gives
 * zeros. `hidden [B, T, E]`, `attentionMask [B, T]` (0/1) → `[B, E]`.
 *
 * @example
 * meanPooling(lastHiddenState, attentionMask);
 */
export function meanPooling(hidden: Tensor, attentionMask: Tensor): Tensor {
  checkTensor(hidden, { caller: 'meanPooling', argument: 'hidden', dtype: 'float32', rank: 3, shape: '[B, T, E]' });
  checkTensor(attentionMask, { caller: 'meanPooling', argument: 'attentionMask', rank: 2, shape: '[B, T]' });
  if (attentionMask.shape[0] !== hidden.shape[0] || attentionMask.shape[1] !== hidden.shape[1]) {
    throw new InvalidArgumentError({ caller: 'meanPooling', argument: 'attentionMask', expected: `[B, T] = ${formatShape(hidden.shape.slice(0, 2))}`, received: formatShape(attentionMask.shape) });
  }
  return tidy(() => {
    const weights = expandDims(cast(attentionMask, 'float32'), -1); // [B, T, 1]
    return div(sum(mul(hidden, weights), 1), maximum(sum(weights, 1), 1e-9)); // [B, E]
  });
}

/** The first token's vector (`[CLS]`): `hidden [B, T, E]` → `[B, E]`. */
export function clsPooling(hidden: Tensor): Tensor {
  checkTensor(hidden, { caller: 'clsPooling', argument: 'hidden', dtype: 'float32', rank: 3, shape: '[B, T, E]' });
  return tidy(() => squeeze(slice(hidden, [0, 0, 0], [-1, 1, -1]), [1]));
}

/** Rows scaled to unit length (a zero row stays zero): `[N, E]` → `[N, E]`. */
export function l2Normalize(x: Tensor): Tensor {
  checkTensor(x, { caller: 'l2Normalize', argument: 'x', dtype: 'float32', rank: 2, shape: '[N, E]' });
  return tidy(() => div(x, maximum(norm(x, 'euclidean', -1, true), 1e-12)));
}

/**
 * Cosine similarity of every row of `a [N, E]` with every row of `b [M, E]` → `[N, M]`.
 *
 * @example
 * cosineSimilarity(embeddings, embeddings); // [N, N], ones on the diagonal
 */
export function cosineSimilarity(a: Tensor, b: Tensor): Tensor {
  checkTensor(b, { caller: 'cosineSimilarity', argument: 'b', dtype: 'float32', rank: 2, shape: '[M, E]' });
  if (a.rank === 2 && a.shape[1] !== b.shape[1]) {
    throw new InvalidArgumentError({ caller: 'cosineSimilarity', argument: 'b', expected: `rows of width E = ${a.shape[1]} like 'a'`, received: formatShape(b.shape) });
  }
  return tidy(() => matMul(l2Normalize(a), transpose(l2Normalize(b)))); // [N, E] x [E, M]
}
