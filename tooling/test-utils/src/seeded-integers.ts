/**
 * Deterministic pseudo-random integers (a 32-bit linear congruential generator): the same seed gives
 * the same sequence on every run and platform, for randomised tests that must be reproducible.
 *
 * @example
 * const next = seededIntegers(7);
 * next(5); // an integer in [0, 5)
 */
export function seededIntegers(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % n;
  };
}
