import { InvalidArgumentError } from '../invalid-argument-error.js';
import { checkObject } from './check-object.js';
import { describeValue } from './describe-value.js';

/**
 * Checks that an optional callback (`onProgress`, `onNotice`, a `fetch`) is a function or
 * `undefined`: a number or an object there would fail only when first called, far from the call
 * that passed it. `expected` says what kind of function (default "a function").
 *
 * @example
 * checkFunction(options.onProgress, { caller: 'loadSentenceEncoder', argument: 'onProgress' });
 */
export function checkFunction(value: unknown, details: { readonly caller: string; readonly argument: string; readonly expected?: string }): void {
  const { caller, argument, expected = 'a function' } = checkObject(details, { caller: 'checkFunction', argument: 'details', expected: 'an object { caller, argument, expected? }' });
  if (value !== undefined && typeof value !== 'function') throw new InvalidArgumentError({ caller, argument, expected, received: describeValue(value) });
}
