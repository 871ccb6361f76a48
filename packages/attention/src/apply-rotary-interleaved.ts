import { add, concat, expandDims, mul, neg, reshape, slice, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkTensor, formatShape } from '@attnkit/errors';

/**
 * Applies rotary position embeddings in the interleaved layout of RoFormer and GPT-J: the pairs that
 * turn are neighbours, `(x₀, x₁), (x₂, x₃), ...`, and `x · cos + rotate_every_two(x) · sin` with
 * `rotate_every_two(x) = [−x₁, x₀, −x₃, x₂, ...]` — not the half-split pairs `(xᵢ, x_{i+R/2})` of
 * Llama's `rotate_half` ({@link applyRotary}). `cos` and `sin` hold each pair's angle twice in a row
 * (`θ₀, θ₀, θ₁, θ₁, ...`, as RoFormer's `cos_pos`, `sin_pos`). With R < D only the first R dims of
 * each head turn, the rest pass through. One tensor per call, so queries, keys and (RoFormer's
 * `rotary_value`) values each take one; any head count. Differentiable.
 *
 * `x [B, H, T, D]`, `cos`, `sin` `[B, T, R]` or `[1, T, R]` (R even, ≤ D) → `[B, H, T, D]`.
 *
 * @example
 * const query = applyRotaryInterleaved(q, cos, sin); // q [B, H, T, D], cos and sin [1, T, D]
 * const key = applyRotaryInterleaved(k, cos, sin);
 */
export function applyRotaryInterleaved(x: Tensor, cos: Tensor, sin: Tensor): Tensor {
  const caller = 'applyRotaryInterleaved';
  checkTensor(x, { caller, argument: 'x', dtype: 'float32', rank: 4, shape: '[B, H, T, D]' });
  checkTensor(cos, { caller, argument: 'cos', dtype: 'float32', rank: 3, shape: '[B, T, R]' });
  checkTensor(sin, { caller, argument: 'sin', dtype: 'float32', rank: 3, shape: '[B, T, R]' });
  const [batch, heads, length, headDim] = x.shape as [number, number, number, number];
  const rotaryDim = cos.shape[2] as number;
  if ((cos.shape[0] !== batch && cos.shape[0] !== 1) || cos.shape[1] !== length || rotaryDim % 2 !== 0 || rotaryDim < 2 || rotaryDim > headDim) {
    throw new InvalidArgumentError({ caller, argument: 'cos', expected: `[B, T, R] or [1, T, R] with B, T = ${batch}, ${length} and R even, 2 ≤ R ≤ D = ${headDim}`, received: formatShape(cos.shape), hint: 'Each angle twice in a row (θ0, θ0, θ1, θ1, ...), as RoFormer builds cos_pos.' });
  }
  if (sin.shape.some((size, i) => size !== cos.shape[i])) {
    throw new InvalidArgumentError({ caller, argument: 'sin', expected: `the shape of 'cos', ${formatShape(cos.shape)}`, received: formatShape(sin.shape) });
  }
  return tidy(() => {
    const rotated = rotaryDim === headDim ? x : slice(x, [0, 0, 0, 0], [batch, heads, length, rotaryDim]); // [B, H, T, D] -> [B, H, T, R]
    const pairs = reshape(rotated, [batch * heads * length, rotaryDim / 2, 2]); // [B, H, T, R] -> [B·H·T, R/2, 2]
    const even = slice(pairs, [0, 0, 0], [-1, -1, 1]); // x₀, x₂, ...: [B·H·T, R/2, 1]
    const odd = slice(pairs, [0, 0, 1], [-1, -1, 1]); // x₁, x₃, ...
    const turned = reshape(concat([neg(odd), even], 2), [batch, heads, length, rotaryDim]); // rotate_every_two: [-x₁, x₀, ...], [B, H, T, R]
    const [c, s] = [expandDims(cos, 1), expandDims(sin, 1)]; // [B|1, T, R] -> [B|1, 1, T, R], shared by the heads
    const embedded = add(mul(rotated, c), mul(turned, s));
    return rotaryDim === headDim ? embedded : concat([embedded, slice(x, [0, 0, 0, rotaryDim], [batch, heads, length, headDim - rotaryDim])], 3); // [B, H, T, R] ++ [B, H, T, D-R]
  });
}
