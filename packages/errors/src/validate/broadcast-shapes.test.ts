import { describe, expect, it } from 'vitest';
import { broadcastShapes } from './broadcast-shapes.js';

describe('broadcastShapes', () => {
  it('broadcasts like NumPy, aligning the last axes', () => {
    expect(broadcastShapes([2, 1, 1, 5], [1, 1, 3, 5], 'f', 'x')).toEqual([2, 1, 3, 5]);
    expect(broadcastShapes([3, 5], [2, 1, 1, 1], 'f', 'x')).toEqual([2, 1, 3, 5]);
    expect(broadcastShapes([], [4], 'f', 'x')).toEqual([4]);
  });
  it('names the first axis that does not broadcast', () => {
    expect(() => broadcastShapes([2, 1, 1, 5], [3, 1, 1, 5], 'mergeMasks', 'masks')).toThrow(
      "mergeMasks: 'masks' must be shapes that broadcast (each axis equal or 1, aligned from the last); received [2, 1, 1, 5] and [3, 1, 1, 5], which differ at axis -4 (2 vs 3).",
    );
  });

  it('refuses a shape with holes (a hole is no size)', () => {
    expect(() => broadcastShapes([1, , 1] as number[], [1, 1, 1], 'f', 'masks')).toThrow("f: 'masks' must be two shapes (lists of non-negative integers); received array [1,undefined,1]."); // eslint-disable-line no-sparse-arrays
  });
});
