// Test-only helper (left out of the published files): the check every command's argument tests make.
import { expect } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';

/**
 * Checks that `parse` throws the command's typed usage error: an `InvalidArgumentError` whose
 * message starts with `message` (its final full stop left off: the usage follows it) and names the usage.
 *
 * @example
 * expectUsageError(() => parseEncodeArgs(['--txt', 'a']), "attnkit encode: 'arguments' must be ...; received Unknown option '--txt'.", 'Usage: attnkit encode');
 */
export function expectUsageError(parse: () => unknown, message: string, usage: string): void {
  const error = thrown(parse);
  expect(error).toBeInstanceOf(InvalidArgumentError);
  expect(error.message.startsWith(message.slice(0, -1))).toBe(true);
  expect(error.message).toContain(usage);
}
