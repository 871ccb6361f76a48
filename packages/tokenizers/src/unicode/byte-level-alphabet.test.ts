import { describe, expect, it } from 'vitest';
import { BYTE_TO_CHAR, CHAR_TO_BYTE, byteLevel } from './byte-level-alphabet.js';

describe('byteLevel', () => {
  it("maps UTF-8 bytes to GPT-2's printable characters (tokenizers 0.23 ByteLevel normalizer: 'Hello 我' → 'HelloĠæĪĳ')", () => {
    expect(byteLevel('Hello 我')).toBe('HelloĠæĪĳ');
    expect(byteLevel('\ud800')).toBe(byteLevel('\ufffd')); // a lone surrogate is written as U+FFFD, as UTF-8 encoding does
  });

  it('is a one-to-one table over the 256 bytes', () => {
    expect(new Set(BYTE_TO_CHAR).size).toBe(256);
    expect(BYTE_TO_CHAR.every((c, b) => CHAR_TO_BYTE.get(c) === b)).toBe(true);
  });
});
