import { add, concat, div, expandDims, gather, greater, max, maximum, mul, range, reshape, sqrt, sum, where, type Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkTensor, describeValue, formatShape } from '@attnkit/errors';
import { firstCountedPosition, lastCountedPosition } from './counted-positions.js';

/** sentence-transformers' pooling modes, in the order their outputs are concatenated. */
export const POOLING_MODES = ['cls', 'max', 'mean', 'mean_sqrt_len_tokens', 'weightedmean', 'lasttoken'] as const;

/** One of {@link POOLING_MODES}. */
export type PoolingMode = (typeof POOLING_MODES)[number];

/**
 * The pooling modes as sentence-transformers computes them, each `tokens [B, T, E]` and
 * `mask [B, T]` (float 1 = counts, 0 = padding or a dropped prompt) → `[B, E]`. Call inside `tidy`.
 */
export const POOL: Record<PoolingMode, (tokens: Tensor, mask: Tensor) => Tensor> = {
  /** The first counted token's vector (`[CLS]`, or the first token after a dropped prompt or left padding). */
  cls: (tokens, mask) => rows(tokens, firstCountedPosition(mask)),
  /**
   * Per feature, the largest value among the counted tokens. A row with no counted token gives the
   * lowest float32 (sentence-transformers gives -inf, which float16 WebGL textures cannot hold).
   */
  max: (tokens, mask) => max(where(greater(expandDims(mask, -1), 0), tokens, LOWEST), 1),
  /** The mean of the counted tokens (sum / max(count, 1e-9)). */
  mean: (tokens, mask) => div(maskedSum(tokens, mask), maximum(sum(mask, 1, true), 1e-9)),
  /** The sum of the counted tokens over the square root of their count. */
  mean_sqrt_len_tokens: (tokens, mask) => div(maskedSum(tokens, mask), sqrt(maximum(sum(mask, 1, true), 1e-9))),
  /** Position-weighted mean: token t (from 1) weighs t. */
  weightedmean: (tokens, mask) => {
    const weights = mul(mask, reshape(range(1, (tokens.shape[1] as number) + 1), [1, -1])); // [B, T]: 1, 2, 3, ... where counted
    return div(maskedSum(tokens, weights), maximum(sum(weights, 1, true), 1e-9));
  },
  /** The last counted token's vector (right or left padding); zeros for a row with no counted token. */
  lasttoken: (tokens, mask) => rows(mul(tokens, expandDims(mask, -1)), lastCountedPosition(mask)), // [B, E]
};

/** The lowest float32: the fill of positions `max` must not pick. */
const LOWEST = -3.4028234663852886e38;

/** Row `b` of `tokens [B, T, E]` at position `index[b]` → `[B, E]`. */
function rows(tokens: Tensor, index: Tensor): Tensor {
  const [batch = 0, length = 0, width = 0] = tokens.shape;
  const flat = reshape(tokens, [-1, width]); // [B * T, E]
  return gather(flat, add(range(0, batch * length, length, 'int32'), index)); // row starts 0, T, 2T, ... + index: [B, E]
}

/** `tokens [B, T, E]` weighted by `weights [B, T]`, summed over T → `[B, E]`. */
function maskedSum(tokens: Tensor, weights: Tensor): Tensor {
  return sum(mul(tokens, expandDims(weights, -1)), 1);
}

/** Each mode's output for the same batch, concatenated along the features: `tokens [B, T, E]` float32 and `mask [B, T]` (float32 or int32, 1 = counted) → `[B, modes · E]`. */
export function poolModes(modes: readonly PoolingMode[], tokens: Tensor, mask: Tensor): Tensor {
  if (!Array.isArray(modes) || modes.length === 0 || !modes.every((m) => Object.hasOwn(POOL, m))) throw new InvalidArgumentError({ caller: 'poolModes', argument: 'modes', expected: `a non-empty list of ${Object.keys(POOL).map((m) => `'${m}'`).join(', ')}`, received: describeValue(modes) });
  const tokensShape = checkTensor(tokens, { caller: 'poolModes', argument: 'tokens', dtype: 'float32', rank: 3, shape: '[B, T, E]' }).shape;
  const maskShape = checkTensor(mask, { caller: 'poolModes', argument: 'mask', dtype: ['float32', 'int32'], rank: 2, shape: '[B, T] (1 = counted)' }).shape;
  if (maskShape[0] !== tokensShape[0] || maskShape[1] !== tokensShape[1]) throw new InvalidArgumentError({ caller: 'poolModes', argument: 'mask', expected: `[B, T] = ${formatShape(tokensShape.slice(0, 2))}`, received: formatShape(maskShape) });
  const outputs = (modes as readonly PoolingMode[]).map((mode) => POOL[mode](tokens, mask));
  return outputs.length === 1 ? (outputs[0] as Tensor) : concat(outputs, 1);
}
