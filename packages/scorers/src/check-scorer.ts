import { describeValue, InvalidArgumentError } from '@attnkit/errors';
import type { Scorer } from './scorer.js';

/**
 * Returns `scorer` when it is a {@link Scorer} (an object with a `score(query, key)` method), else
 * throws an `InvalidArgumentError` naming `caller` and `argument`: a string, a tensor or a bare
 * function given where a scorer belongs is refused before any attention is computed.
 *
 * @example
 * checkScorer(dotProductScorer, 'MultiHeadAttention'); // dotProductScorer
 * checkScorer('dot', 'MultiHeadAttention'); // InvalidArgumentError: 'scorer' must be a Scorer ...
 */
export function checkScorer(scorer: unknown, caller: string, argument = 'scorer'): Scorer {
  if (typeof (scorer as Partial<Scorer> | null)?.score !== 'function') {
    throw new InvalidArgumentError({ caller, argument, expected: 'a Scorer (an object with a score(query, key) method returning [B, H, T, S])', received: describeValue(scorer) });
  }
  return scorer as Scorer;
}
