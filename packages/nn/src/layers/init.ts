import { fill, randomNormal, randomUniform, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { checkMemoryBudget } from '@attnkit/backends';
import { InvalidArgumentError, describeValue } from '@attnkit/errors';

let skipping = 0;
const PARAMETER_HINT = 'A layer this size does not fit this backend: choose smaller dimensions.';

/** How {@link initialValues} draws a parameter's values. */
export type InitialValues = { readonly uniform: number } | { readonly normal: number } | { readonly constant: number } | { readonly glorotUniform: number };

/**
 * Initial values for a parameter, as PyTorch's `nn.init`: `uniform(bound)` draws from
 * `U(-bound, bound)`, `normal(std)` from `N(0, std²)`, `constant(value)` fills, `glorotUniform(gain)`
 * draws from `U(-a, a)` with `a = gain · √(6 / (fanIn + fanOut))` (`xavier_uniform_`, tf.layers'
 * default; a weight `[out, in]` has fanOut = out, fanIn = in). A `seed` makes the
 * draw reproducible (layers derive one seed per parameter from theirs). Inside
 * {@link skipInitialization} every parameter starts at zero instead. A parameter larger than the
 * backend's memory budget (`checkMemoryBudget`) is a `ResourceLimitError` naming `caller`, before
 * anything is allocated.
 *
 * @example
 * initialValues([16, 8], { uniform: 1 / Math.sqrt(8) }, 7); // nn.Linear(8, 16)'s weight init, seeded
 */
export function initialValues(shape: readonly number[], init: InitialValues, seed?: number, caller = 'initialValues'): Tensor {
  if (!Array.isArray(shape) || !shape.every((d) => Number.isInteger(d) && d >= 0)) throw new InvalidArgumentError({ caller: 'initialValues', argument: 'shape', expected: 'a list of non-negative integers', received: describeValue(shape) });
  if (typeof init !== 'object' || init === null || !['uniform', 'normal', 'constant', 'glorotUniform'].some((k) => Object.hasOwn(init, k))) throw new InvalidArgumentError({ caller: 'initialValues', argument: 'init', expected: '{ uniform }, { normal }, { constant } or { glorotUniform }', received: describeValue(init) });
  if (seed !== undefined && (typeof seed !== 'number' || !Number.isSafeInteger(seed))) throw new InvalidArgumentError({ caller: typeof caller === 'string' ? caller : 'initialValues', argument: 'seed', expected: 'an integer (or undefined for an unseeded draw)', received: describeValue(seed) });
  const dims = shape as number[];
  checkMemoryBudget(typeof caller === 'string' ? caller : 'initialValues', 'the values of a parameter', dims, 1, undefined, PARAMETER_HINT); // before any allocation
  if (skipping > 0) return zeros(dims); // the values are about to be loaded: no random draw
  if ('glorotUniform' in init) {
    const [fanOut = 1, fanIn = fanOut] = dims;
    const bound = init.glorotUniform * Math.sqrt(6 / (fanIn + fanOut));
    return randomUniform(dims, -bound, bound, 'float32', seed);
  }
  if ('uniform' in init) return randomUniform(dims, -init.uniform, init.uniform, 'float32', seed);
  if ('normal' in init) return randomNormal(dims, 0, init.normal, 'float32', seed);
  return fill(dims, init.constant, 'float32');
}

/**
 * Builds modules without drawing their initial values (every parameter starts at zero): for
 * modules whose weights are loaded right after, as a checkpoint loader does. Drawing random values
 * for a 22M-parameter model costs about as much as loading it. Hugging Face's `no_init_weights`.
 *
 * @example
 * const model = skipInitialization(() => new BertModel(config));
 * model.loadStateDict(weights);
 */
export function skipInitialization<T>(build: () => T): T {
  if (typeof build !== 'function') throw new InvalidArgumentError({ caller: 'skipInitialization', argument: 'build', expected: 'a function that builds modules', received: describeValue(build) });
  skipping += 1;
  try {
    return build();
  } finally {
    skipping -= 1;
  }
}
