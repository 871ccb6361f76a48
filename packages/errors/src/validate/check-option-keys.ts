import { InvalidArgumentError } from '../invalid-argument-error.js';
import { closestName } from '../closest-name.js';
import { summarizeList } from '../summarize-list.js';
import { checkObject } from './check-object.js';
import { describeValue } from './describe-value.js';

/** The accepted key an unknown one was probably meant as: the same but for case and `_` / `-`, one that contains the other (`attentionMask` for `mask`), or the closest spelling. */
function closest(key: string, allowed: readonly string[]): string | undefined {
  const simple = (name: string) => name.toLowerCase().replace(/[_-]/g, '');
  const a = simple(key);
  const same = allowed.find((candidate) => simple(candidate) === a);
  const containing = allowed.find((candidate) => a.length >= 3 && simple(candidate).length >= 3 && (a.includes(simple(candidate)) || simple(candidate).includes(a)));
  return same ?? containing ?? closestName(key, allowed);
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
  if (!Array.isArray(allowed) || !everyString(allowed)) {
    throw new InvalidArgumentError({ caller: 'checkOptionKeys', argument: 'allowed', expected: 'a list of the accepted option names', received: describeValue(allowed) });
  }
  checkObject(options, { caller, argument });
  const keys = Reflect.ownKeys(options as object);
  let known = true;
  for (let i = 0; i < keys.length && known; i++) { const key = keys[i]; known = typeof key === 'string' && allowed.includes(key); } // no allocation when every key is accepted
  if (known) return options as NonNullable<T>;
  const unknown = keys.filter((key) => typeof key !== 'string' || !allowed.includes(key));
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

function everyString(list: readonly unknown[]): boolean {
  for (let i = 0; i < list.length; i++) if (typeof list[i] !== 'string') return false;
  return true;
}
