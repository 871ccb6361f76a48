import { describe, expect, it } from 'vitest';
import { MissingUnknownToken } from './tokenizer-model.js';
import { wordPiece } from './word-piece.js';

describe('wordPiece', () => {
  // tokenizers 0.23: models.WordPiece(vocab, unk_token='[UNK]', max_input_chars_per_word=5).tokenize(word)
  const model = wordPiece({ vocab: { '[UNK]': 0, un: 1, '##able': 2, '##a': 3, a: 4 }, unkToken: '[UNK]', continuingSubwordPrefix: '##', maxInputCharsPerWord: 5 });
  const tokens = (word: string) => model.tokenize(word).map((t) => t.token);

  it('takes the longest piece first; a word with an unmatched part, or too long, is one unknown token', () => {
    expect(tokens('aa')).toEqual(['a', '##a']);
    expect(tokens('unable')).toEqual(['[UNK]']); // six characters, over 5
    expect(tokens('unx')).toEqual(['[UNK]']);
    expect(model.tokenize('aa').map((t) => t.id)).toEqual([4, 3]);
  });

  it('throws MissingUnknownToken when the unknown token is not in the vocabulary (the library: MissingUnkToken)', () => {
    expect(() => wordPiece({ vocab: { a: 0 }, unkToken: '[UNK]', continuingSubwordPrefix: '##', maxInputCharsPerWord: 100 }).tokenize('b')).toThrow(MissingUnknownToken);
  });
});
