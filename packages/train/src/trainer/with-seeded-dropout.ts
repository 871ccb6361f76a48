import { seededRandom } from './seeded-random.js';

/**
 * Runs `step` (synchronous: a forward and backward pass) with every dropout mask drawn from a
 * stream seeded by `seed` and `step`'s number, so a training run is reproducible and a resumed run
 * draws the masks the uninterrupted one would have.
 *
 * Why this works, and its limit: the encoders call `Dropout.forward` and
 * `scaledDotProductAttention` without a seed, and tfjs' `dropout` then seeds its
 * `randomUniform` with `Math.random()`. For the duration of the synchronous `step` only,
 * `Math.random` is replaced by the seeded stream (and restored in `finally`); nothing else runs in
 * between on JavaScript's single thread. The masks are drawn in JavaScript, so they are the same on
 * every backend. A cleaner fix is a dropout generator in `@attnkit/nn` (see the package README).
 *
 * @example
 * const { value, grads } = withSeededDropout(42, step, () => variableGrads(lossFunction, parameters));
 */
export function withSeededDropout<T>(seed: number, stepNumber: number, step: () => T): T {
  const original = Math.random;
  Math.random = seededRandom(seed, 0x64726f70, stepNumber); // 'drop'
  try {
    return step();
  } finally {
    Math.random = original;
  }
}
