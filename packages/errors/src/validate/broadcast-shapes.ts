import { InvalidArgumentError } from '../invalid-argument-error.js';
import { describeValue, formatShape } from './describe-value.js';

/**
 * The NumPy broadcast of two shapes (aligned at the last axis; each pair of sizes equal or one of
 * them 1), or {@link InvalidArgumentError} naming the first axis that does not broadcast.
 *
 * @example
 * broadcastShapes([2, 1, 1, 5], [1, 1, 3, 5], 'mergeMasks', 'masks'); // [2, 1, 3, 5]
 */
export function broadcastShapes(a: readonly number[], b: readonly number[], caller: string, argument: string): number[] {
  for (const shape of [a, b]) {
    if (!Array.isArray(shape) || !Array.from(shape as unknown[]).every((d) => typeof d === 'number' && Number.isInteger(d) && d >= 0)) { // Array.from: a hole is no size
      throw new InvalidArgumentError({ caller: typeof caller === 'string' ? caller : 'broadcastShapes', argument: typeof argument === 'string' ? argument : 'shape', expected: 'two shapes (lists of non-negative integers)', received: describeValue(shape) });
    }
  }
  const rank = Math.max(a.length, b.length);
  const out: number[] = [];
  for (let i = 0; i < rank; i++) {
    const x = a[a.length - rank + i] ?? 1;
    const y = b[b.length - rank + i] ?? 1;
    if (x !== y && x !== 1 && y !== 1) {
      throw new InvalidArgumentError({
        caller,
        argument,
        expected: `shapes that broadcast (each axis equal or 1, aligned from the last)`,
        received: `${formatShape(a)} and ${formatShape(b)}, which differ at axis ${i - rank} (${x} vs ${y})`,
      });
    }
    out.push(x === 1 ? y : x);
  }
  return out;
}
