import { describe, expect, it } from 'vitest';
import { shortestFloat32, shortestFloat32Values } from './shortest-float32.js';

/** Significant digits of a number as JSON prints it (1.5e-7: 2, 120: 2). */
const digits = (x: number) => JSON.stringify(x).replace(/^-/, '').replace(/e.*$/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '').length;

describe('shortestFloat32', () => {
  it.each([
    [1.0000001192092896, 1.0000001],
    [Math.fround(0.1), 0.1],
    [Math.fround(-0.8), -0.8],
    [0.9999999403953552, 0.99999994],
    [1, 1],
    [Math.fround(1e-30), 1e-30],
    [Math.fround(3.4e38), 3.4e38],
    [Math.fround(1.401298464324817e-45), 1e-45], // the smallest subnormal
    [0.123456789012345, 0.12345679], // not a float32 yet: rounded to one first
  ])('%d -> %d', (value, expected) => {
    expect(shortestFloat32(value)).toBe(expected);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0, -0])('leaves %d as it is', (value) => {
    expect(Object.is(shortestFloat32(value), value)).toBe(true);
  });

  it('reads back as the same float32, in at most 9 digits, none shorter reading back, for 20000 float32 values', () => {
    const bits = new Uint32Array(20_000);
    let state = 12345;
    for (let i = 0; i < bits.length; i++) bits[i] = state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const values = Array.from(new Float32Array(bits.buffer)).filter(Number.isFinite);
    expect(values.length).toBeGreaterThan(19_000);
    for (const f of values) {
      const shortest = shortestFloat32(f);
      expect(Math.fround(shortest)).toBe(f);
      expect(digits(shortest)).toBeLessThanOrEqual(9);
      if (digits(shortest) > 1) expect(Math.fround(Number(f.toPrecision(digits(shortest) - 1)))).not.toBe(f);
    }
  });

  it('maps nested arrays, keeping their shape', () => {
    expect(shortestFloat32Values([[1.0000001192092896, 0.20000000298023224], [1]])).toEqual([[1.0000001, 0.2], [1]]);
    expect(shortestFloat32Values([])).toEqual([]);
  });
});
