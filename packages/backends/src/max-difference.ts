import { describeValue, InvalidArgumentError } from '@attnkit/errors';

/** How far `actual` is from `expected`, element by element. */
export interface Difference {
  /** `max |actual - expected|`; `Infinity` if one side is NaN or ±Infinity where the other is not. */
  readonly maxAbsDiff: number;
  /** `maxAbsDiff / max |expected|` (0 when both are all zeros): error relative to the output's scale. */
  readonly maxRelDiff: number;
}

/**
 * Compares two flat arrays as float64. NaN matches only NaN and an infinity only the same
 * infinity, so a backend that returns NaN where the reference is finite can never pass.
 *
 * @example
 * maxDifference(await y.data(), [0.1, 0.2]); // { maxAbsDiff: 1.4e-9, maxRelDiff: 7e-9 }
 */
export function maxDifference(
  actual: ArrayLike<number>,
  expected: ArrayLike<number>,
  caller = 'maxDifference',
): Difference {
  for (const [argument, value] of [['actual', actual], ['expected', expected]] as const) {
    if (typeof value !== 'object' || value === null || typeof (value as { length?: unknown }).length !== 'number') throw new InvalidArgumentError({ caller: typeof caller === 'string' ? caller : 'maxDifference', argument, expected: 'an array or typed array of numbers (await tensor.data())', received: describeValue(value) });
  }
  if (actual.length !== expected.length) {
    throw new InvalidArgumentError({
      caller,
      argument: 'actual',
      expected: `${expected.length} values, as many as the reference`,
      received: `${actual.length} values`,
    });
  }
  let maxAbsDiff = 0;
  let scale = 0;
  for (let i = 0; i < actual.length; i++) {
    const a = actual[i] as number;
    const e = expected[i] as number;
    if (Number.isFinite(e)) scale = Math.max(scale, Math.abs(e));
    const same = a === e || (Number.isNaN(a) && Number.isNaN(e));
    const diff = same ? 0 : Math.abs(a - e);
    maxAbsDiff = Math.max(maxAbsDiff, Number.isNaN(diff) ? Infinity : diff);
  }
  const maxRelDiff = maxAbsDiff === 0 ? 0 : maxAbsDiff / (scale === 0 ? Number.MIN_VALUE : scale);
  return { maxAbsDiff, maxRelDiff };
}
