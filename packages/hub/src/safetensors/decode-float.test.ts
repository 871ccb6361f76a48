import { describe, expect, it } from 'vitest';
import { decodeHalf } from './decode-float.js';

describe('decodeHalf', () => {
  it('decodes every F16 class: normal, subnormal, zero, infinity, NaN', () => {
    const bytes = Uint8Array.of(0x00, 0x3c, 0xff, 0x7b, 0x00, 0x04, 0x01, 0x00, 0x00, 0x80, 0x00, 0xfc, 0x01, 0x7e);
    const [one, max, minNormal, minSub, negZero, negInf, nan] = Array.from(decodeHalf(bytes, 'F16'));
    expect([one, max, minNormal, minSub, negInf]).toEqual([1, 65504, 2 ** -14, 2 ** -24, -Infinity]);
    expect(Object.is(negZero, -0)).toBe(true);
    expect(nan).toBeNaN();
  });
  it('decodes BF16 as the top half of a float32', () => {
    expect(Array.from(decodeHalf(Uint8Array.of(0x80, 0xbf, 0x80, 0x7f), 'BF16'))).toEqual([-1, Infinity]);
  });
});
