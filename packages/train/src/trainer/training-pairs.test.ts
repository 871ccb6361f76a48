import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { checkTrainingPairs } from './training-pairs.js';

describe('checkTrainingPairs', () => {
  it('reads ranking pairs in one shape', () => {
    expect(checkTrainingPairs([{ anchor: 'a', positive: 'b' }], 'multiple-negatives-ranking')).toEqual({ texts: [['a', 'b']], labels: [] });
  });

  it('refuses a loss that is none of the sentence losses (it used to be read as the cosine loss)', () => {
    expect(() => checkTrainingPairs([{ anchor: 'a', positive: 'b' }], 'x' as never)).toThrow(InvalidArgumentError);
    expect(() => checkTrainingPairs([{ anchor: 'a', positive: 'b' }], null as never, 'caller')).toThrow("caller: 'loss' must be 'multiple-negatives-ranking' or 'cosine-similarity'; received null.");
  });
});
