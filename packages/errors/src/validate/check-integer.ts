import { InvalidArgumentError } from '../invalid-argument-error.js';
import { describeValue } from './describe-value.js';
import { checkObject } from './check-object.js';

/**
 * Checks that a public argument is an integer in `[min, max]`, or throws {@link InvalidArgumentError}.
 *
 * @example
 * checkInteger(keyLength, { caller: 'paddingMask', argument: 'keyLength', min: 1 });
 */
export function checkInteger(value: unknown, options: { caller: string; argument: string; min?: number; max?: number }): number {
  const { caller, argument, min = -Infinity, max = Infinity } = checkObject(options, { caller: 'checkInteger', argument: 'options', expected: 'an object { caller, argument, min?, max? }' });
  if (typeof min !== 'number' || Number.isNaN(min)) throw badBound('min', min);
  if (typeof max !== 'number' || Number.isNaN(max)) throw badBound('max', max);
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const range = min === -Infinity ? (max === Infinity ? '' : ` ≤ ${max}`) : max === Infinity ? ` ≥ ${min}` : ` from ${min} to ${max}`;
    throw new InvalidArgumentError({ caller, argument, expected: `an integer${range}`, received: describeValue(value) });
  }
  return value;
}

function badBound(name: 'min' | 'max', bound: unknown): InvalidArgumentError {
  return new InvalidArgumentError({ caller: 'checkInteger', argument: `options.${name}`, expected: 'a number (or absent: no bound)', received: describeValue(bound) });
}
