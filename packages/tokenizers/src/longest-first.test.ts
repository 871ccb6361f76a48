import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { longestFirst } from './tokenizer.js';

describe('longestFirst', () => {
  it('truncates the longer side first, as the tokenizers library', () => {
    expect(longestFirst([1, 2, 3], [4, 5], 4)).toEqual([[1, 2], [4, 5]]);
    expect(longestFirst([1, 2, 3], [4, 5], 5)).toEqual([[1, 2, 3], [4, 5]]);
  });

  it('refuses a sparse list, naming the side and the hole (a hole is no token)', () => {
    expect(() => longestFirst([1, , 3] as number[], [4], 2)).toThrow(InvalidArgumentError); // eslint-disable-line no-sparse-arrays
    expect(() => longestFirst([1], [4, , 6] as number[], 2)).toThrow(/longestFirst: 'b' must be a list of tokens or ids without holes; received a sparse array \(no item at index 1\)/); // eslint-disable-line no-sparse-arrays
  });
});
