import { add, concat, expandDims, mul, neg, slice, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkTensor, formatShape } from '@attnkit/errors';

/** What {@link applyRotary} returns. */
export interface RotaryResult {
  /** `[B, H, T, D]`. */
  readonly query: Tensor;
  /** `[B, Hkv, T, D]`. */
  readonly key: Tensor;
}

/** `x` rotated over its first R dims: `x · cos + rotate_half(x) · sin`, the other D − R dims passed through. */
function rotate(x: Tensor, cos: Tensor, sin: Tensor, rotaryDim: number): Tensor {
  const [b, h, t, d] = x.shape as [number, number, number, number];
  const half = rotaryDim / 2;
  const rotated = rotaryDim === d ? x : slice(x, [0, 0, 0, 0], [b, h, t, rotaryDim]); // [B, H, T, D] -> [B, H, T, R]
  const first = slice(rotated, [0, 0, 0, 0], [b, h, t, half]); // [B, H, T, R/2]
  const second = slice(rotated, [0, 0, 0, half], [b, h, t, half]);
  const halfTurned = concat([neg(second), first], 3); // rotate_half: [-x2, x1], [B, H, T, R]
  const embedded = add(mul(rotated, cos), mul(halfTurned, sin));
  return rotaryDim === d ? embedded : concat([embedded, slice(x, [0, 0, 0, rotaryDim], [b, h, t, d - rotaryDim])], 3); // [B, H, T, R] ++ [B, H, T, D-R]
}

/**
 * Applies rotary position embeddings to queries and keys, equal to transformers'
 * `apply_rotary_pos_emb` (the rotate_half convention of Llama, Mistral, Qwen, Gemma, GPT-NeoX):
 * `x · cos + rotate_half(x) · sin` with `rotate_half(x) = [−x₂, x₁]` over the halves of the rotated
 * width R = the last axis of `cos`. With a partial rotary factor (R < D), only the first R dims of
 * each head turn, and the rest pass through, as GPT-NeoX's version. Queries and keys may have
 * different head counts (grouped-query attention). Differentiable.
 *
 * `query [B, H, T, D]`, `key [B, Hkv, T, D]`, `cos`, `sin` `[B, T, R]` (R even, ≤ D) → `{ query, key }` of the same shapes.
 *
 * @example
 * const { cos, sin } = rotary.forward(positionIds);
 * const { query, key } = applyRotary(q, k, cos, sin);
 */
export function applyRotary(query: Tensor, key: Tensor, cos: Tensor, sin: Tensor): RotaryResult {
  const caller = 'applyRotary';
  checkTensor(query, { caller, argument: 'query', dtype: 'float32', rank: 4, shape: '[B, H, T, D]' });
  checkTensor(key, { caller, argument: 'key', dtype: 'float32', rank: 4, shape: '[B, Hkv, T, D]' });
  const [batch, , length, headDim] = query.shape as [number, number, number, number];
  checkRotaryCosSin(cos, sin, batch, length, headDim, caller);
  if (key.shape[0] !== batch || key.shape[2] !== length || key.shape[3] !== headDim) {
    throw new InvalidArgumentError({ caller, argument: 'key', expected: `[B, Hkv, T, D] with B, T, D = ${batch}, ${length}, ${headDim} (from 'query')`, received: formatShape(key.shape) });
  }
  const rotaryDim = cos.shape[2] as number;
  return tidy(() => {
    const [c, s] = [expandDims(cos, 1), expandDims(sin, 1)]; // [B, T, R] -> [B, 1, T, R], shared by the heads
    return { query: rotate(query, c, s, rotaryDim), key: rotate(key, c, s, rotaryDim) };
  });
}

/**
 * Checks rotary `cos` and `sin` `[B, T, R]` (float32, R even, 2 ≤ R ≤ D) for heads of `batch`,
 * `length` and `headDim` (typed errors naming `cos` or `sin`); returns R.
 */
export function checkRotaryCosSin(cos: Tensor, sin: Tensor, batch: number, length: number, headDim: number, caller: string): number {
  checkTensor(cos, { caller, argument: 'cos', dtype: 'float32', rank: 3, shape: '[B, T, R]' });
  checkTensor(sin, { caller, argument: 'sin', dtype: 'float32', rank: 3, shape: '[B, T, R]' });
  const rotaryDim = cos.shape[2] as number;
  if (cos.shape[0] !== batch || cos.shape[1] !== length || rotaryDim % 2 !== 0 || rotaryDim < 2 || rotaryDim > headDim) {
    throw new InvalidArgumentError({ caller, argument: 'cos', expected: `[B, T, R] with B, T = ${batch}, ${length} and R even, 2 ≤ R ≤ D = ${headDim}`, received: formatShape(cos.shape), hint: 'rotaryCosSin() or RotaryEmbedding.forward() make cos and sin from the position ids [B, T].' });
  }
  if (sin.shape.some((size, i) => size !== cos.shape[i])) {
    throw new InvalidArgumentError({ caller, argument: 'sin', expected: `the shape of 'cos', ${formatShape(cos.shape)}`, received: formatShape(sin.shape) });
  }
  return rotaryDim;
}
