import { describe, expect, it } from 'vitest';
import { bpe, type BpeOptions } from './bpe.js';

const plain: Omit<BpeOptions, 'vocab' | 'merges'> = { unkToken: null, continuingSubwordPrefix: null, endOfWordSuffix: null, fuseUnk: false, byteFallback: false, ignoreMerges: false };
const vocab = { a: 0, b: 1, c: 2, ab: 3, bc: 4, abc: 5, '<unk>': 6 };
const merges: [string, string][] = [['a', 'b'], ['b', 'c'], ['ab', 'c']];

describe('bpe', () => {
  // references: tokenizers 0.23 models.BPE(...).tokenize(word)
  it('merges the lowest-ranked pair first; unknown characters are the unknown token, fused with fuse_unk', () => {
    const tokens = (options: Partial<BpeOptions>, word: string) => bpe({ ...plain, vocab, merges, unkToken: '<unk>', ...options }).tokenize(word).map((t) => t.token);
    expect(tokens({}, 'abcab')).toEqual(['abc', 'ab']);
    expect(tokens({}, 'abxxc')).toEqual(['ab', '<unk>', '<unk>', 'c']);
    expect(tokens({ fuseUnk: true }, 'abxxc')).toEqual(['ab', '<unk>', 'c']);
  });

  it('writes the prefix and the suffix on the symbols, falls back to bytes of the whole symbol, drops what has no token', () => {
    expect(bpe({ ...plain, vocab: { a: 0, '##b': 1, ab: 2, '<0xC3>': 3, '<0xA9>': 4 }, merges: [['a', '##b']], continuingSubwordPrefix: '##', byteFallback: true }).tokenize('abé')).toEqual([{ id: 2, token: 'ab' }]); // '##é' has no byte tokens for '#'
    const suffixed = bpe({ ...plain, vocab: { a: 0, 'b</w>': 1, 'ab</w>': 2 }, merges: [['a', 'b</w>']], endOfWordSuffix: '</w>' });
    expect([suffixed.tokenize('ab').map((t) => t.token), suffixed.tokenize('ba')]).toEqual([['ab</w>'], []]);
  });

  it('takes a word in the vocabulary whole with ignore_merges', () => {
    const model = bpe({ ...plain, vocab: { a: 0, b: 1, ab: 2, abab: 3 }, merges: [['a', 'b']], ignoreMerges: true });
    expect([model.tokenize('abab'), model.tokenize('ababa')].map((t) => t.map((x) => x.token))).toEqual([['abab'], ['ab', 'ab', 'a']]);
  });
});
