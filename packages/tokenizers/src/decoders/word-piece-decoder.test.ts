import { describe, expect, it } from 'vitest';
import { wordPieceDecoder } from './word-piece-decoder.js';

describe('wordPieceDecoder', () => {
  it('joins pieces and cleans each token up on its own (tokenizers 0.23 WordPiece decoder)', () => {
    expect(wordPieceDecoder('##', true)(['hello', '##s', ',', 'world', 'do', 'not', "'", 's']).join('')).toBe("hellos, world do not ' s");
    expect(wordPieceDecoder('##', false)(['hello', '##s', ',']).join('')).toBe('hellos ,');
  });
});
