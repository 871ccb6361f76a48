import { InvalidArgumentError } from '../invalid-argument-error.js';
import { summarizeList } from '../summarize-list.js';
import { checkObject } from './check-object.js';
import { describeValue } from './describe-value.js';

/** The edit distance between two short names (insertions, deletions, substitutions), case-insensitive. */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1)));
    previous = current;
  }
  return previous[y.length]!;
}

/** The accepted key an unknown one was probably meant as: a close spelling, or one that contains the other (`attentionMask` for `mask`). */
function closest(key: string, allowed: readonly string[]): string | undefined {
  const simple = (name: string) => name.toLowerCase().replace(/[_-]/g, '');
  let best: string | undefined;
  let bestScore = Infinity;
  for (const candidate of allowed) {
    const a = simple(key);
    const b = simple(candidate);
    const score = a === b ? 0 : a.length >= 3 && b.length >= 3 && (a.includes(b) || b.includes(a)) ? 1 : distance(a, b);
    if (score < bestScore) [best, bestScore] = [candidate, score];
  }
  return best !== undefined && bestScore <= Math.max(1, Math.floor(key.length / 3)) ? best : undefined;
}

/**
 * Checks that an options object has only accepted keys, so that a misspelled option (a mask
 * passed as `attentionMask` where `mask` is read) is a typed error instead of silently ignored.
 * The message names the unknown key, the accepted keys and, when one is close, the likely one.
 * Keys whose value is `undefined` are checked too. Returns the options object.
 *
 * @example
 * checkOptionKeys({ attentionMask: m }, ['mask', 'scale'], 'scaledDotProductAttention');
 * // InvalidArgumentError: scaledDotProductAttention: 'options' must be an object with only the keys mask, scale;
 * //   received the unknown key 'attentionMask'. Did you mean 'mask'?
 */
export function checkOptionKeys<T>(options: T, allowed: readonly string[], caller: string, argument = 'options'): NonNullable<T> {
  if (!Array.isArray(allowed) || !allowed.every((key) => typeof key === 'string')) {
    throw new InvalidArgumentError({ caller: 'checkOptionKeys', argument: 'allowed', expected: 'a list of the accepted option names', received: describeValue(allowed) });
  }
  checkObject(options, { caller, argument });
  const unknown = Reflect.ownKeys(options as object).filter((key) => typeof key !== 'string' || !allowed.includes(key));
  if (unknown.length === 0) return options as NonNullable<T>;
  const names = unknown.map((key) => (typeof key === 'string' ? `'${key}'` : describeValue(key)));
  const first = unknown[0];
  const guess = typeof first === 'string' ? closest(first, allowed) : undefined;
  throw new InvalidArgumentError({
    caller,
    argument,
    expected: allowed.length === 0 ? 'an empty object (no options are accepted)' : `an object with only the keys ${summarizeList(allowed, 30)}`,
    received: `the unknown key${unknown.length > 1 ? 's' : ''} ${summarizeList(names, 5)}`,
    ...(guess === undefined ? {} : { hint: `Did you mean '${guess}'?` }),
  });
}
