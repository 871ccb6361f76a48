/**
 * `make` computed on the first call only, then remembered: the conformance cases build their inputs
 * and float64 references when a run needs them, not when the package is imported.
 *
 * @example
 * const inputs = once(() => seededValues(1, 1_000));
 * inputs() === inputs(); // true
 */
export function once<T>(make: () => T): () => T {
  let made: { readonly value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
