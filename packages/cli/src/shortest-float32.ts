/** Whether `digits` significant digits of `f` read back as the float32 `f`. */
const readsBack = (f: number, digits: number): boolean => Math.fround(Number(f.toPrecision(digits))) === f;

/**
 * The shortest decimal that reads back as the same float32 as `value` (`Math.fround(result) ===
 * Math.fround(value)`), for JSON: a float32 from a tensor printed as a float64 shows digits that
 * mean nothing (`1.0000001192092896`); this gives `1.0000001`, and `0.1` for `Math.fround(0.1)`.
 * At most 9 significant digits, the most a float32 needs; NaN, ±Infinity and 0 are returned as they are.
 *
 * @example
 * shortestFloat32(1.0000001192092896); // 1.0000001
 * JSON.stringify([0.800000011920929, 1].map(shortestFloat32)); // '[0.8,1]'
 */
export function shortestFloat32(value: number): number {
  const f = Math.fround(value);
  if (!Number.isFinite(f) || f === 0) return f;
  let [low, high] = [1, 9]; // 9 digits always read back; more digits never read back worse, so search
  while (low < high) {
    const middle = (low + high) >> 1;
    if (readsBack(f, middle)) high = middle;
    else low = middle + 1;
  }
  return Number(f.toPrecision(low));
}

/** Nested arrays of numbers, as `tensor.array()` gives them. */
export type NestedNumbers = number | readonly NestedNumbers[];

/**
 * {@link shortestFloat32} of every number in nested arrays (`tensor.array()` of a float32 tensor),
 * in the same shape.
 *
 * @example
 * shortestFloat32Values([[1.0000001192092896, 0.20000000298023224]]); // [[1.0000001, 0.2]]
 */
export function shortestFloat32Values<T extends NestedNumbers>(values: T): T {
  return (typeof values === 'number' ? shortestFloat32(values) : values.map((v) => shortestFloat32Values(v))) as T;
}
