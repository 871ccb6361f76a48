import type { Tensor } from '@tensorflow/tfjs-core';
import { checkTensor, describeValue, formatShape, InvalidArgumentError } from '@attnkit/errors';

/**
 * Checks the `residual` option of a product (`int8MatMul`, `Linear.forward`): a float32 tensor of
 * the output's shape `[..., M]`, or throws `InvalidArgumentError` naming both shapes.
 *
 * @example
 * checkResidual(hidden, [1, 1, 576], 'int8MatMul'); // hidden [B, T, E] added to the output [B, T, E]
 */
export function checkResidual(residual: unknown, outShape: readonly number[], caller: string): Tensor {
  if (!Array.isArray(outShape) || !outShape.every((d) => Number.isInteger(d) && d >= 0)) {
    throw new InvalidArgumentError({ caller: 'checkResidual', argument: 'outShape', expected: "the product's output shape [..., M] (a list of integers ≥ 0)", received: describeValue(outShape) });
  }
  const r = checkTensor(residual, { caller, argument: 'residual', dtype: 'float32', shape: '[..., M]' });
  if (r.rank !== outShape.length || r.shape.some((d, i) => d !== outShape[i])) {
    throw new InvalidArgumentError({ caller, argument: 'residual', expected: `a float32 tensor of the output's shape ${formatShape(outShape)}`, received: formatShape(r.shape) });
  }
  return r;
}
