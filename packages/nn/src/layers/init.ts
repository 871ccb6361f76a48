import { randomNormal, randomUniform, type Tensor } from '@tensorflow/tfjs-core';

/**
 * Initial values for a parameter, as PyTorch's `nn.init`: `uniform(bound)` draws from
 * `U(-bound, bound)`, `normal(std)` from `N(0, std²)`, `constant(value)` fills. A `seed` makes the
 * draw reproducible (layers derive one seed per parameter from theirs).
 *
 * @example
 * initialValues([16, 8], { uniform: 1 / Math.sqrt(8) }, 7); // nn.Linear(8, 16)'s weight init, seeded
 */
export function initialValues(shape: readonly number[], init: { readonly uniform: number } | { readonly normal: number } | { readonly constant: number }, seed?: number): Tensor {
  const dims = shape as number[];
  if ('uniform' in init) return randomUniform(dims, -init.uniform, init.uniform, 'float32', seed);
  if ('normal' in init) return randomNormal(dims, 0, init.normal, 'float32', seed);
  return randomUniform(dims, init.constant, init.constant, 'float32');
}
