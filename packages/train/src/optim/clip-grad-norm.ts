import { add, div, minimum, mul, scalar, sqrt, square, sum, tidy, type NamedTensorMap, type Scalar, type Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkObject, checkTensor, describeValue } from '@attnkit/errors';

/** What {@link clipGradNorm} returns; the caller owns (and disposes) every tensor in it. */
export interface ClippedGradients<G extends NamedTensorMap = NamedTensorMap> {
  /** The gradients times `min(1, maxNorm / (totalNorm + 1e-6))`, under the same keys (new tensors). */
  readonly gradients: G;
  /** The L2 norm of all gradients together, before clipping (a scalar tensor, not read back). */
  readonly totalNorm: Scalar;
}

/**
 * `torch.nn.utils.clip_grad_norm_` (`norm_type=2`): the L2 norm of all gradients taken together,
 * and the gradients scaled by `min(1, maxNorm / (totalNorm + 1e-6))`. As in PyTorch, every
 * gradient is multiplied even when the factor is 1, and a norm equal to `maxNorm` still scales by
 * `maxNorm / (maxNorm + 1e-6)`. NaN or infinite gradients give a NaN or infinite norm and are not
 * refused (PyTorch's `error_if_nonfinite=False`). The inputs are left as they are; no data is read.
 *
 * `gradients: { name: Tensor }` (what `variableGrads` returns) → `{ gradients, totalNorm: [] }`.
 *
 * @example
 * const { value, grads } = variableGrads(() => loss(), model.trainableParameters());
 * const { gradients, totalNorm } = clipGradNorm(grads, 1.0);
 * optimizer.applyGradients(gradients);
 * dispose([value, totalNorm, ...Object.values(grads), ...Object.values(gradients)]);
 */
export function clipGradNorm<G extends NamedTensorMap>(gradients: G, maxNorm: number): ClippedGradients<G> {
  const caller = 'clipGradNorm';
  checkObject(gradients, { caller, argument: 'gradients', expected: 'an object of float32 gradient tensors by name (as variableGrads returns)' });
  const entries = Object.entries(gradients) as Array<[string, Tensor]>;
  for (const [name, gradient] of entries) checkTensor(gradient, { caller, argument: `gradients.${name}`, dtype: 'float32' });
  if (typeof maxNorm !== 'number' || !(maxNorm > 0) || maxNorm === Infinity) {
    throw new InvalidArgumentError({ caller, argument: 'maxNorm', expected: 'a finite number > 0', received: describeValue(maxNorm) });
  }
  return tidy(() => {
    const squares = entries.map(([, gradient]) => sum(square(gradient))); // one scalar per gradient
    const totalNorm = sqrt(squares.reduce((total, s) => add(total, s), scalar(0))) as Scalar;
    const coefficient = minimum(div(maxNorm, add(totalNorm, 1e-6)), 1); // clamped to 1
    const clipped = Object.fromEntries(entries.map(([name, gradient]) => [name, mul(gradient, coefficient)])) as G;
    return { gradients: clipped, totalNorm };
  });
}
