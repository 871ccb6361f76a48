import { describe, expect, it } from 'vitest';
import { MissingUnknownToken } from './tokenizer-model.js';
import { unigram } from './unigram.js';

describe('unigram', () => {
  // references: tokenizers 0.23 models.Unigram(vocab, unk_id, byte_fallback).tokenize(word)
  it('gives the best-scoring segmentation, unknown characters fused into one unknown token', () => {
    const model = unigram({ vocab: [['<unk>', 0], ['a', -1], ['b', -2], ['ab', -1.5], ['c', -3]], unkId: 0, byteFallback: false });
    expect(model.tokenize('abcxyab')).toEqual([{ id: 3, token: 'ab' }, { id: 4, token: 'c' }, { id: 0, token: 'xy' }, { id: 3, token: 'ab' }]);
  });

  it('falls back to byte tokens when all of them are there', () => {
    const model = unigram({ vocab: [['<unk>', 0], ['a', -1], ['<0xC3>', 0], ['<0xA9>', 0]], unkId: 0, byteFallback: true });
    expect(model.tokenize('aé').map((t) => t.id)).toEqual([1, 2, 3]);
    expect(model.tokenize('a🙂')).toEqual([{ id: 1, token: 'a' }, { id: 0, token: '🙂' }]);
  });

  it('throws MissingUnknownToken for an unknown character without unk_id (the library: MissingUnkId)', () => {
    expect(() => unigram({ vocab: [['a', 0]], unkId: null, byteFallback: false }).tokenize('ab')).toThrow(MissingUnknownToken);
  });
});
