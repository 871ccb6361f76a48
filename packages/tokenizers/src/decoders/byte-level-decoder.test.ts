import { describe, expect, it } from 'vitest';
import { byteLevelDecoder } from './byte-level-decoder.js';

describe('byteLevelDecoder', () => {
  it('turns byte characters back into text, other tokens as their own bytes, invalid bytes as U+FFFD (tokenizers 0.23 ByteLevel decoder)', () => {
    expect(byteLevelDecoder(['Hello', 'Ġw', 'Ã¶rld', '<mask>', 'Ã'])).toEqual(['Hello wörld<mask>\ufffd']);
  });
});
