import { cast, clipByValue, customGrad, greater, less, logicalAnd, mul, tidy, type Tensor } from '@tensorflow/tfjs-core';

const clipped = customGrad(((x: Tensor, save: (tensors: Tensor[]) => void) => {
  save([x]);
  return {
    value: clipByValue(x, 0, 6),
    gradFunc: (dy: Tensor, [input]: Tensor[]) => tidy(() => mul(dy, cast(logicalAnd(greater(input!, 0), less(input!, 6)), 'float32'))),
  };
}) as unknown as Parameters<typeof customGrad>[0]);

/**
 * `min(max(x, 0), 6)` with PyTorch's gradient: 1 strictly inside (0, 6), 0 at and beyond both
 * kinks (tfjs' own `relu6` passes the gradient at x = 6). `x [...]` → same shape.
 *
 * @example
 * relu6(tf.tensor([-1, 3, 6, 7])); // [0, 3, 6, 6]
 */
export function relu6(x: Tensor): Tensor {
  return clipped(x) as Tensor;
}
