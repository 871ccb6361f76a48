import { describe, expect, it } from 'vitest';
import { lossCurvePoints } from './loss-curve.js';

describe('lossCurvePoints', () => {
  const box = { left: 40, top: 20, width: 100, height: 50 };

  it('puts step i + 1 at (i + 1) / totalSteps of the width and the largest loss at the top, 0 at the bottom', () => {
    expect(lossCurvePoints([2, 1, 0], 4, box)).toEqual([
      { x: 65, y: 20 },
      { x: 90, y: 45 },
      { x: 115, y: 70 },
    ]);
  });

  it('scales to a given ceiling, clamping above it and below 0', () => {
    expect(lossCurvePoints([4, -1], 2, box, 2).map((p) => p.y)).toEqual([20, 70]);
  });

  it('is empty before the first step', () => {
    expect(lossCurvePoints([], 10, box)).toEqual([]);
  });
});
