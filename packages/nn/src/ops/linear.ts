import { fused, reshape, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkTensor, formatShape } from '@attnkit/errors';
import { kernelRoute } from '@attnkit/kernels';
import { f32MatMulUnchecked } from '@attnkit/kernels/unchecked';

/**
 * Whether a float product runs on attnkit's float32 kernels (`f32MatMul` of `@attnkit/kernels`)
 * instead of tfjs matMul — as `kernelRoute('f32MatMul')` of `@attnkit/kernels` decides: on the wasm
 * backend, when no gradient is being recorded, where this engine runs WebAssembly SIMD. There the
 * kernels are faster than tfjs-wasm's matMul and fuse GELU and the residual LayerNorm; the `'simd'`
 * kernel gives tfjs-wasm's numbers bit for bit, the `'relaxed-simd'` one (a multiply-add per step)
 * within a rounding per step.
 *
 * @example
 * if (onF32Kernels()) return f32MatMul(x, weight, bias, { activation: 'gelu' });
 */
export function onF32Kernels(): boolean {
  return kernelRoute('f32MatMul').useKernel;
}

/**
 * `x Wᵀ + b` over the last axis, for any leading shape — `nn.Linear` with its weight in PyTorch
 * layout `[out, in]`. One fused matMul (bias included) on a `[N, in]` view; on wasm, outside
 * gradient recording, attnkit's float32 kernel (see {@link onF32Kernels}).
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
  const [outFeatures, inFeatures] = weight.shape as [number, number];
  if (inFeatures === 0 || outFeatures === 0) {
    throw new InvalidArgumentError({ caller: 'linear', argument: 'weight', expected: 'a float32 tensor [out, in] with out ≥ 1 and in ≥ 1', received: formatShape(weight.shape) });
  }
  if (x.rank === 0 || x.shape[x.rank - 1] !== inFeatures) {
    throw new InvalidArgumentError({ caller: 'linear', argument: 'x', expected: `a float32 tensor [..., in] with in = ${inFeatures} (weight is [out, in] = ${formatShape(weight.shape)})`, received: `rank ${x.rank} ${formatShape(x.shape)}` });
  }
  if (bias !== undefined && bias.shape[0] !== outFeatures) {
    throw new InvalidArgumentError({ caller: 'linear', argument: 'bias', expected: `a float32 tensor [out] with out = ${outFeatures} (weight is [out, in] = ${formatShape(weight.shape)})`, received: formatShape(bias.shape) });
  }
  return linearUnchecked(x, weight, bias);
}

/**
 * {@link linear} without its checks, for `Linear.forward`, whose parameters are its own and whose
 * input it checked once: `x [..., in]` float32, `weight [out, in]`, `bias [out]`.
 */
export function linearUnchecked(x: Tensor, weight: Tensor, bias?: Tensor): Tensor {
  if (kernelRoute('f32MatMul', [x]).useKernel) return f32MatMulUnchecked(x, weight, bias);
  const [outFeatures, inFeatures] = weight.shape as [number, number];
  return tidy(() => {
    const rows = x.shape.slice(0, -1).reduce((n, d) => n * d, 1);
    const flat = reshape(x, [rows, inFeatures]); // [..., in] -> [N, in]
    const projected = fused.matMul({ a: flat, b: weight, transposeB: true, ...(bias === undefined ? {} : { bias }) }); // [N, out]
    return reshape(projected, [...x.shape.slice(0, -1), outFeatures]); // [N, out] -> [..., out]
  });
}
