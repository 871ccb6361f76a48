import { InvalidArgumentError } from '../invalid-argument-error.js';
import { describeValue, isTensorLike } from './describe-value.js';

/**
 * Checks that an options or config argument is a plain object (not null, an array, a tensor or a
 * primitive) and returns it, so that a call without one is a typed error naming the argument
 * instead of a `TypeError` from reading its fields.
 *
 * @example
 * const config = checkObject(rawConfig, { caller: 'FeedForward', argument: 'config', expected: 'a FeedForwardConfig object ({ embedDim, ... })' });
 */
export function checkObject<T>(value: T, details: { readonly caller: string; readonly argument: string; readonly expected?: string }): NonNullable<T> {
  if (typeof details !== 'object' || details === null || Array.isArray(details) || isTensorLike(details)) {
    throw new InvalidArgumentError({ caller: 'checkObject', argument: 'details', expected: 'an object { caller, argument, expected? }', received: describeValue(details) });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || isTensorLike(value)) {
    throw new InvalidArgumentError({ caller: details.caller, argument: details.argument, expected: details.expected ?? 'an options object', received: describeValue(value) });
  }
  return value as NonNullable<T>;
}
