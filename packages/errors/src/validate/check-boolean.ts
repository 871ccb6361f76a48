import { InvalidArgumentError } from '../invalid-argument-error.js';
import { checkObject } from './check-object.js';
import { describeValue } from './describe-value.js';

/**
 * Checks that an optional flag is `true`, `false` or `undefined` (then `fallback`), so that
 * `{ training: 'yes' }` or `{ normalize: 0 }` is a typed error instead of read as truthy or falsy.
 *
 * @example
 * const training = checkBoolean(options.training, { caller: 'scaledDotProductAttention', argument: 'training', fallback: false });
 */
export function checkBoolean(value: unknown, details: { readonly caller: string; readonly argument: string; readonly fallback: boolean }): boolean {
  const { caller, argument, fallback } = checkObject(details, { caller: 'checkBoolean', argument: 'details', expected: 'an object { caller, argument, fallback }' });
  if (typeof fallback !== 'boolean') throw new InvalidArgumentError({ caller: 'checkBoolean', argument: 'details.fallback', expected: 'true or false (what an absent flag means)', received: describeValue(fallback) });
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') {
    throw new InvalidArgumentError({ caller, argument, expected: 'true or false', received: describeValue(value) });
  }
  return value;
}
