/**
 * The first NaN or ±Infinity in a case's returned value, with where it is (`[1].values[3]`), or
 * undefined when there is none. Looks into numbers, arrays, typed arrays and plain objects (up to
 * eight levels deep); class instances such as tensors or models are not read.
 *
 * @example
 * findNonFinite({ values: [1, NaN] }); // { value: NaN, path: '.values[1]' }
 */
export function findNonFinite(value: unknown, path = '', depth = 0): { value: number; path: string } | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : { value, path };
  if (depth >= 8 || typeof value !== 'object' || value === null) return undefined;
  if (ArrayBuffer.isView(value)) {
    if (value instanceof DataView || value instanceof BigInt64Array || value instanceof BigUint64Array) return undefined;
    const numbers = value as unknown as ArrayLike<number>;
    for (let i = 0; i < numbers.length; i++) if (!Number.isFinite(numbers[i])) return { value: numbers[i]!, path: `${path}[${i}]` };
    return undefined;
  }
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findNonFinite(item, `${path}[${i}]`, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = findNonFinite(item, `${path}.${key}`, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
