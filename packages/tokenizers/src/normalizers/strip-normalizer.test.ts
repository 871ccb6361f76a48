import { describe, expect, it } from 'vitest';
import { stripNormalizer } from './strip-normalizer.js';

describe('stripNormalizer', () => {
  it('strips Unicode White_Space (U+0085 is, U+FEFF is not), as tokenizers 0.23 Strip', () => {
    expect(stripNormalizer(true, false)('\u0085 a \ufeff')).toBe('a \ufeff');
    expect(stripNormalizer(false, true)(' a \u3000')).toBe(' a');
    expect(stripNormalizer(true, true)('\ufeff a ')).toBe('\ufeff a');
  });
});
