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
  for (const [name, bound] of [['min', min], ['max', max]] as const) {
    if (typeof bound !== 'number' || Number.isNaN(bound)) throw new InvalidArgumentError({ caller: 'checkInteger', argument: `options.${name}`, expected: 'a number (or absent: no bound)', received: describeValue(bound) });
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const range = min === -Infinity ? (max === Infinity ? '' : ` ≤ ${max}`) : max === Infinity ? ` ≥ ${min}` : ` from ${min} to ${max}`;
    throw new InvalidArgumentError({ caller, argument, expected: `an integer${range}`, received: describeValue(value) });
  }
  return value;
}
