import { describe, expect, it } from 'vitest';
import { nmtNormalizer } from './nmt-normalizer.js';

describe('nmtNormalizer', () => {
  it('removes controls and spaces zero-width characters, keeping NUL and U+0085 (tokenizers 0.23 Nmt)', () => {
    expect(nmtNormalizer('a\u0001b\tc\u200bd\u0085e\u0000f')).toBe('ab c d\u0085e\u0000f');
  });
});
