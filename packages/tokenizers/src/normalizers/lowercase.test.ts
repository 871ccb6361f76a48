import { describe, expect, it } from 'vitest';
import { lowercase } from './lowercase.js';

describe('lowercase', () => {
  it('lowercases character by character, without the final-sigma rule (tokenizers 0.23 Lowercase: "σασ i̇ straße")', () => {
    expect(lowercase('ΣΑΣ İ Straße')).toBe('σασ i\u0307 straße');
    expect('ΣΑΣ'.toLowerCase()).toBe('σας'); // what a whole-string toLowerCase would give instead
    expect(lowercase('Hello WORLD')).toBe('hello world');
  });
});
