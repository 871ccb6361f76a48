import { InvalidArgumentError } from '../invalid-argument-error.js';
import { checkObject } from './check-object.js';
import { describeValue } from './describe-value.js';

/**
 * Checks that an optional `signal` option is an `AbortSignal` (anything with a boolean `aborted`
 * and `throwIfAborted()`) or `undefined`: `{ signal: true }` is a typed error, never a signal
 * silently ignored.
 *
 * @example
 * checkAbortSignal(options.signal, { caller: 'loadSentenceEncoder' });
 */
export function checkAbortSignal(value: unknown, details: { readonly caller: string; readonly argument?: string }): void {
  const { caller, argument = 'signal' } = checkObject(details, { caller: 'checkAbortSignal', argument: 'details', expected: 'an object { caller, argument? }' });
  if (value === undefined) return;
  const signal = value as { throwIfAborted?: unknown; aborted?: unknown } | null;
  if (typeof signal !== 'object' || signal === null || typeof signal.throwIfAborted !== 'function' || typeof signal.aborted !== 'boolean') {
    throw new InvalidArgumentError({ caller, argument, expected: 'an AbortSignal (from new AbortController().signal)', received: describeValue(value) });
  }
}
