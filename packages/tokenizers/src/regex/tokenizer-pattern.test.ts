import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { ComponentConfig } from '../tokenizer-json/component-config.js';
import { tokenizerPattern } from './tokenizer-pattern.js';

const pattern = (value: unknown, place = 'pre_tokenizer') => tokenizerPattern(ComponentConfig.of({ type: 'Split', pattern: value }, place, 'Tokenizer'));

describe('tokenizerPattern', () => {
  it('matches a String literally and rewrites an Oniguruma Regex (\\s as White_Space)', () => {
    expect('a.b.c'.replace(pattern({ String: '.' }), '_')).toBe('a_b_c');
    expect('a\u0085b\ufeffc'.split(pattern({ Regex: '\\s' }))).toEqual(['a', 'b\ufeffc']);
  });

  it('refuses a pattern that is not one, and one that can backtrack catastrophically, naming where it is', () => {
    expect(thrown(() => pattern({ Glob: '*' })).message).toBe(`Tokenizer: 'tokenizer.json pre_tokenizer.pattern (Split)' must be {"String": text} or {"Regex": pattern}; received {"Glob":"*"}.`);
    const error = thrown(() => pattern({ Regex: '(a|aa)*b' }, 'normalizer.normalizers[0]'));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("Tokenizer: 'tokenizer.json normalizer pattern' must be a regular expression that cannot backtrack catastrophically; received /(a|aa)*b/: quantified alternation: a repeated group holds alternatives.");
  });
});
