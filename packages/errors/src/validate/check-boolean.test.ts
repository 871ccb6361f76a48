import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import { checkBoolean } from './check-boolean.js';

describe('checkBoolean', () => {
  it('passes booleans and gives the fallback for undefined', () => {
    expect(checkBoolean(true, { caller: 'f', argument: 'training', fallback: false })).toBe(true);
    expect(checkBoolean(undefined, { caller: 'f', argument: 'training', fallback: true })).toBe(true);
  });
  it.each([['yes', "string 'yes'"], [0, 'number 0'], [null, 'null']] as const)('refuses %j', (value, received) => {
    expect(() => checkBoolean(value, { caller: 'f', argument: 'training', fallback: false })).toThrow(InvalidArgumentError);
    expect(() => checkBoolean(value, { caller: 'f', argument: 'training', fallback: false })).toThrow(`f: 'training' must be true or false; received ${received}.`);
  });

  it('refuses a fallback that is no boolean, even when the value is given', () => {
    for (const fallback of [undefined, null, 'x', 0]) {
      expect(() => checkBoolean(true, { caller: 'f', argument: 'b', fallback: fallback as never })).toThrow(InvalidArgumentError);
      expect(() => checkBoolean(undefined, { caller: 'f', argument: 'b', fallback: fallback as never })).toThrow(/^checkBoolean: 'details.fallback' must be true or false/);
    }
  });
});
