import { describe, expect, it } from 'vitest';
import { checkInteger } from './check-integer.js';

describe('checkInteger', () => {
  it('accepts integers in range', () => expect(checkInteger(3, { caller: 'f', argument: 'n', min: 1 })).toBe(3));
  it.each([
    [0, { min: 1 }, "f: 'n' must be an integer ≥ 1; received number 0."],
    [2.5, {}, "f: 'n' must be an integer; received number 2.5."],
    [NaN, { min: 1, max: 8 }, "f: 'n' must be an integer from 1 to 8; received number NaN."],
    ['3', { max: 8 }, "f: 'n' must be an integer ≤ 8; received string '3'."],
  ] as const)('rejects %j', (value, range, message) => {
    expect(() => checkInteger(value, { caller: 'f', argument: 'n', ...range })).toThrow(message);
  });

  it('refuses bounds that are no number instead of comparing with them (3 < null and 3 > "x" are false)', () => {
    expect(() => checkInteger(3, { caller: 'f', argument: 'n', min: null as never })).toThrow("checkInteger: 'options.min' must be a number (or absent: no bound); received null.");
    expect(() => checkInteger(3, { caller: 'f', argument: 'n', max: 'x' as never })).toThrow("checkInteger: 'options.max' must be a number (or absent: no bound); received string 'x'.");
    expect(() => checkInteger(3, { caller: 'f', argument: 'n', min: Number.NaN })).toThrow("'options.min' must be a number");
    expect(checkInteger(3, { caller: 'f', argument: 'n', min: -Infinity, max: Infinity })).toBe(3);
  });
});
