import { zeros } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { checkScorer } from './check-scorer.js';
import { dotProductScorer } from './dot-product-scorer.js';

describe('checkScorer', () => {
  it('returns a scorer, and refuses what is not one with a typed error naming the argument', () => {
    expect(checkScorer(dotProductScorer, 'f')).toBe(dotProductScorer);
    const custom = { name: 'custom', score: () => zeros([1]) };
    expect(checkScorer(custom, 'f')).toBe(custom);
    for (const bad of ['dot', null, {}, 3, () => 0]) {
      const error = thrown(() => checkScorer(bad, 'MultiHeadAttention'));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toMatch(/^MultiHeadAttention: 'scorer' must be a Scorer \(an object with a score\(query, key\) method/);
    }
    expect(thrown(() => checkScorer('dot', 'f', 'options.scorer')).message).toMatch(/^f: 'options.scorer' must be/);
  });
});
