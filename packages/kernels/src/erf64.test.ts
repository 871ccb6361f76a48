import { describe, expect, it } from 'vitest';
import { erf64 } from './erf64.js';

// Reference values printed by CPython's math.erf (the C library's erf, within ~1 ulp):
// /usr/bin/python3 -c "from math import erf; print(repr(erf(0.1)))"
const TABLE: Array<[number, number]> = [
  [0, 0],
  [0.1, 0.1124629160182849],
  [0.5, 0.5204998778130465],
  [1, 0.8427007929497149],
  [2, 0.9953222650189527],
  [2.9, 0.9999589021219005],
  [3.1, 0.9999883513426328],
  [4, 0.9999999845827421],
  [5.5, 0.9999999999999927],
];

describe('erf64', () => {
  it.each(TABLE)('erf(%f) to 2e-15, odd symmetry', (x, expected) => {
    expect(Math.abs(erf64(x) - expected)).toBeLessThan(2e-15);
    expect(erf64(-x)).toBe(-erf64(x));
  });
  it('is continuous where the series hands over to the continued fraction', () => {
    expect(Math.abs(erf64(2) - erf64(2 + 1e-12))).toBeLessThan(1e-13);
  });
  it('propagates NaN', () => expect(erf64(NaN)).toBeNaN());
});
