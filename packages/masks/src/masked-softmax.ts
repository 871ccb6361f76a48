import { all, customGrad, div, engine, equal, exp, isFinite, less, logicalAnd, logicalNot, max, mul, onesLike, softmax, sub, sum, tidy, where, zerosLike, type GradSaveFunc, type Tensor } from '@tensorflow/tfjs-core';
import { assertBackendReady } from '@attnkit/backends';
import { MASKED_SOFTMAX_KERNEL, kernelRoute } from '@attnkit/kernels';
import { InvalidArgumentError, broadcastShapes, checkTensor, formatShape } from '@attnkit/errors';
import { checkBoolMask } from './check-bool-mask.js';
import { maskedFillValue } from './masked-fill-value.js';

const LOWEST_FLOAT32 = -3.4028234663852886e38;

/**
 * Softmax over the last axis (keys) that gives blocked positions exactly zero weight: the max and
 * the sum of each row are taken over its allowed entries only, so allowed scores of any size
 * (−1e9, −3.4e38) get their exact softmax. A row with no allowed key, or whose allowed scores are
 * all −∞, comes back as zeros (as PyTorch's `_safe_softmax`); a NaN among the allowed scores makes
 * its row NaN (never hidden). Blocked scores never matter, whatever they hold. On wasm, a mask whose
 * last axis is S runs as one fused SIMD kernel (`MASKED_SOFTMAX_KERNEL` from `@attnkit/kernels`, as `kernelRoute` decides),
 * with the same rules.
 *
 * @param scores float32 `[..., T, S]`, e.g. `[B, H, T, S]`
 * @param mask bool, broadcastable to `scores` (e.g. `[B, 1, 1, S]`); `undefined` = every key allowed
 *   (plain softmax, with the same zero rows for rows of only −∞)
 * @returns float32, the shape of `scores`
 * @example
 * maskedSoftmax(scores, mergeMasks(paddingMask(lengths, S), causalMask(T, S)));
 */
export function maskedSoftmax(scores: Tensor, mask?: Tensor): Tensor {
  const caller = 'maskedSoftmax';
  assertBackendReady(caller);
  checkTensor(scores, { caller, argument: 'scores', dtype: 'float32', rank: [1, 2, 3, 4, 5, 6], shape: '[..., T, S]' });
  if (mask === undefined) {
    // every key allowed: plain softmax, except that a row of only −∞ is zeros (_safe_softmax), not NaN
    // (cpu, wasm) or a row of ones (webgl); NaN rows stay NaN
    // (every entry tested, not the row's max: WebGL's max reduction starts at -1e20, not -Infinity;
    // and no -Infinity literal, which WebGL shaders reject)
    return withSoftmaxGradient((x) => {
      const onlyMinusInfinity = all(logicalAnd(logicalNot(isFinite(x)), less(x, 0)), -1, true); // [..., T, 1]
      return where(onlyMinusInfinity, zerosLike(x), softmax(x));
    })(scores);
  }
  checkBoolMask(mask, caller);
  const shape = broadcastShapes(scores.shape, mask.shape, caller, 'mask');
  if (shape.length !== scores.rank || shape.some((size, i) => size !== scores.shape[i])) {
    throw new InvalidArgumentError({
      caller,
      argument: 'mask',
      expected: `broadcastable to the scores' shape ${formatShape(scores.shape)} without enlarging it`,
      received: formatShape(mask.shape),
    });
  }
  if (mask.shape.at(-1) === scores.shape.at(-1) && kernelRoute('maskedSoftmax', [scores]).useKernel) {
    return engine().runKernel(MASKED_SOFTMAX_KERNEL, { scores, mask }) as Tensor; // one fused pass (wasm)
  }
  return withSoftmaxGradient((x) => {
    // the row's max over allowed entries only (blocked -> the lowest float32, so any allowed score wins)
    const rowMax = max(where(mask, x, LOWEST_FLOAT32), -1, true);
    const shift = where(isFinite(rowMax), rowMax, zerosLike(rowMax)); // nothing allowed, or only -inf: 0
    const e = where(mask, exp(where(mask, sub(x, shift), maskedFillValue())), 0); // blocked -> exactly 0
    const total = sum(e, -1, true);
    return div(e, where(equal(total, 0), onesLike(total), total)); // a zero row stays zero; a NaN makes its row NaN
  })(scores);
}

/**
 * `compute` as one op on the gradient tape, with the (masked) softmax gradient y · (dy − Σ dy · y),
 * which is 0 wherever y is 0. Comparisons and `all` have no gradient in tfjs, so the composites
 * above, which test their input, carry this one instead (the wasm kernel registers the same).
 */
function withSoftmaxGradient(compute: (x: Tensor) => Tensor): (x: Tensor) => Tensor {
  return customGrad((...args: Array<Tensor | GradSaveFunc>) => {
    const [x, save] = args as [Tensor, GradSaveFunc];
    const y = tidy(() => compute(x));
    save([y]);
    return { value: y, gradFunc: (dy: Tensor, saved: Tensor[]) => { const out = saved[0] as Tensor; return mul(out, sub(dy, sum(mul(dy, out), -1, true))); } };
  }) as (x: Tensor) => Tensor;
}
