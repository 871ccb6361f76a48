import { fused, reshape, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { checkTensor } from '@attnkit/errors';

/**
 * `x Wᵀ + b` over the last axis, for any leading shape — `nn.Linear` with its weight in PyTorch
 * layout `[out, in]`. One fused matMul (bias included) on a `[N, in]` view.
 *
 * `x: [..., in]`, `weight: [out, in]`, `bias: [out]` → `[..., out]`.
 *
 * @example
 * linear(x, W_q); // [B, T, E] x [A, E]^T -> [B, T, A]
 */
export function linear(x: Tensor, weight: Tensor, bias?: Tensor): Tensor {
  checkTensor(x, { caller: 'linear', argument: 'x', dtype: 'float32', shape: '[..., in]' });
  checkTensor(weight, { caller: 'linear', argument: 'weight', dtype: 'float32', rank: 2, shape: '[out, in]' });
  if (bias !== undefined) checkTensor(bias, { caller: 'linear', argument: 'bias', dtype: 'float32', rank: 1, shape: '[out]' });
  return tidy(() => {
    const inFeatures = x.shape[x.rank - 1] as number;
    const outFeatures = weight.shape[0] as number;
    const flat = reshape(x, [-1, inFeatures]); // [..., in] -> [N, in]
    const projected = fused.matMul({ a: flat, b: weight, transposeB: true, ...(bias === undefined ? {} : { bias }) }); // [N, out]
    return reshape(projected, [...x.shape.slice(0, -1), outFeatures]); // [N, out] -> [..., out]
  });
}
