import { InvalidArgumentError, describeValue } from '@attnkit/errors';
/**
 * MPNet's (and T5's bidirectional) relative position buckets for a `T`-token sequence: entry
 * `[i, j]` is the bucket of `j - i`. Half the buckets are for keys after the query; distances
 * below `numBuckets / 4` get one bucket each, longer ones share log-spaced buckets up to
 * `maxDistance`. Computed in float32 steps as PyTorch does, so the buckets equal Hugging Face's.
 * `T` → `Int32Array` of `T * T` bucket ids (row-major `[T, T]`).
 *
 * @example
 * relativePositionBuckets(3, 32); // [0, 17, 18, 1, 0, 17, 2, 1, 0]
 */
export function relativePositionBuckets(length: number, numBuckets: number, maxDistance = 128): Int32Array {
  for (const [argument, value, min] of [['length', length, 0], ['numBuckets', numBuckets, 4], ['maxDistance', maxDistance, 1]] as const) {
    if (!Number.isInteger(value) || value < min) throw new InvalidArgumentError({ caller: 'relativePositionBuckets', argument, expected: `an integer ≥ ${min}`, received: describeValue(value) });
  }
  const f = Math.fround;
  const half = Math.floor(numBuckets / 2);
  const maxExact = Math.floor(half / 2);
  const scale = f(Math.log(maxDistance / maxExact));
  const buckets = new Int32Array(length * length);
  for (let i = 0; i < length; i++) {
    for (let j = 0; j < length; j++) {
      const n = i - j; // -(j - i)
      const distance = Math.abs(n);
      const large = maxExact + Math.trunc(f(f(f(Math.log(f(distance / maxExact))) / scale) * (half - maxExact)));
      buckets[i * length + j] = (n < 0 ? half : 0) + (distance < maxExact ? distance : Math.min(large, half - 1));
    }
  }
  return buckets;
}
