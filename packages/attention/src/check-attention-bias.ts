import { reshape, type Tensor } from '@tensorflow/tfjs-core';
import { checkInteger, checkObject, checkTensor, formatShape, InvalidArgumentError } from '@attnkit/errors';
import { checkRankTwo } from '@attnkit/masks';

/** The scores an attention bias is added to: `[B, H, T, S]`. */
export interface BiasTarget {
  readonly batch: number;
  readonly heads: number;
  readonly queryLength: number;
  readonly keyLength: number;
}

/**
 * Checks an additive attention bias — relative-position biases, ALiBi, PyTorch's float
 * `attn_mask` — and returns it as rank 4, broadcastable to the scores `[B, H, T, S]`: rank 2 is
 * `[T, S]`, rank 4 broadcasts dimension by dimension (each 1 or equal). Rank 1 and 3 are refused:
 * they are ambiguous (is `[B, T, S]` or `[H, T, S]` meant?), and so is rank 2 when B = T > 1 and
 * its first dimension is B (is `[B, S]` meant?). Returns a reshape the caller disposes
 * when it differs from `bias`.
 *
 * @example
 * const placed = checkAttentionBias(alibi, { batch: 2, heads: 8, queryLength: 5, keyLength: 5 }, 'scaledDotProductAttention'); // [1, 8, 5, 5]
 */
export function checkAttentionBias(bias: unknown, target: BiasTarget, caller: string, argument = 'bias'): Tensor {
  const { batch, heads, queryLength, keyLength } = checkObject(target, { caller: typeof caller === 'string' ? caller : 'checkAttentionBias', argument: 'target', expected: 'the sizes { batch, heads, queryLength, keyLength }' });
  const wanted = [batch, heads, queryLength, keyLength];
  wanted.forEach((size, i) => checkInteger(size, { caller: 'checkAttentionBias', argument: `target.${['batch', 'heads', 'queryLength', 'keyLength'][i]}`, min: 0 }));
  const given = checkTensor(bias, { caller, argument, dtype: 'float32', rank: [2, 4], shape: '[T, S] or [B|1, H|1, T|1, S|1]', dtypeHint: 'A bool tensor is a mask: pass it as the mask, not the bias.' });
  checkRankTwo(given.shape, { batch, queryLength }, caller, argument); // a [B, S] bias would pass as [T, S] when B == T
  const placed = given.rank === 2 ? [1, 1, ...given.shape] : given.shape;
  if (placed.some((size, i) => size !== 1 && size !== wanted[i])) {
    throw new InvalidArgumentError({
      caller,
      argument,
      expected: `broadcastable to [B, H, T, S] = ${formatShape(wanted)} (${given.rank === 2 ? 'rank 2 is [T, S]' : 'each dimension 1 or equal'})`,
      received: formatShape(given.shape),
      hint: 'A per-head bias is [1, H, T, S]; a per-sequence one [B, 1, T, S].',
    });
  }
  return given.rank === 2 ? reshape(given, placed) : given; // [T, S] -> [1, 1, T, S]
}
