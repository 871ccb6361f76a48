import { describeValue, InvalidArgumentError } from '@attnkit/errors';

/**
 * The pairs of a CrossEncoder call, read once each: a list of `[string, string]` (a hole, a lone
 * string, a pair of another length or of non-strings is refused, naming its index; nothing the
 * caller changes afterwards is seen).
 *
 * @example
 * const pairs = checkPairs([['query', 'passage']], 'CrossEncoder.predict');
 */
export function checkPairs(given: ReadonlyArray<readonly [string, string]>, caller: string): ReadonlyArray<readonly [string, string]> {
  if (!Array.isArray(given)) throw new InvalidArgumentError({ caller, argument: 'pairs', expected: 'a list of [string, string] pairs', received: describeValue(given), ...(typeof given === 'string' ? { hint: 'For one pair, pass [[first, second]].' } : {}) });
  return Array.from(given as ArrayLike<unknown>, (entry, i) => {
    const parts: unknown[] | undefined = Array.isArray(entry) ? Array.from(entry as ArrayLike<unknown>) : undefined;
    if (parts === undefined || parts.length !== 2 || typeof parts[0] !== 'string' || typeof parts[1] !== 'string') {
      const lone = typeof entry === 'string' && i === 0 && given.length === 2 && typeof given[1] === 'string';
      throw new InvalidArgumentError({ caller, argument: `pairs[${i}]`, expected: 'a [string, string] pair', received: describeValue(entry), ...(lone ? { hint: 'For one pair, pass [[first, second]], not [first, second].' } : {}) });
    }
    return [parts[0], parts[1]] as const;
  });
}
