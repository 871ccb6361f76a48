import { InvalidArgumentError } from './invalid-argument-error.js';
import { describeValue } from './validate/describe-value.js';
/**
 * The name `given` was most likely meant to be, for a "did you mean" hint: the closest of `names` by
 * edit distance (insertions, deletions, substitutions and swaps of neighbours each count 1; case is
 * ignored), and only when it is close — at most one edit per three letters of the name (at least
 * one), and fewer edits than `given` has letters. Ties go to the earlier name; `undefined` when none
 * is close.
 *
 * @example
 * closestName('txt', ['model', 'text']); // 'text'
 * closestName('embedd', ['encode', 'embed']); // 'embed'
 * closestName('fast', ['model', 'text']); // undefined
 */
export function closestName(given: string, names: readonly string[]): string | undefined {
  if (typeof given !== 'string') throw new InvalidArgumentError({ caller: 'closestName', argument: 'given', expected: 'the name given (a string)', received: describeValue(given) });
  if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) throw new InvalidArgumentError({ caller: 'closestName', argument: 'names', expected: 'a list of the names accepted (strings)', received: describeValue(names) });
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const limit = Math.min(Math.max(1, Math.floor(name.length / 3)), given.length - 1);
    const distance = editDistance(given.toLowerCase(), name.toLowerCase(), limit);
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Optimal-string-alignment distance of `a` and `b` (short names), or `limit + 1` when their lengths alone differ by more than `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) current[j] = Math.min(current[j]!, before[j - 2]! + 1);
    }
    [before, previous] = [previous, current];
  }
  return previous[b.length]!;
}
