import { MissingUnknownToken, vocabularyMaps, type TokenizerModel } from './tokenizer-model.js';

/**
 * The WordLevel model of the Rust `tokenizers` library: each pre-token is a token of the vocabulary
 * or the unknown token.
 *
 * @example
 * wordLevel({ hello: 0, '[UNK]': 1 }, '[UNK]').tokenize('bye'); // [{ id: 1, token: '[UNK]' }]
 */
export function wordLevel(vocab: Record<string, unknown>, unkToken: string): TokenizerModel {
  const { ids, tokens } = vocabularyMaps(vocab);
  return {
    size: ids.size,
    tokenToId: (token) => ids.get(token),
    idToToken: (id) => tokens.get(id),
    tokenize(word) {
      const id = ids.get(word);
      if (id !== undefined) return [{ id, token: word }];
      const unk = ids.get(unkToken);
      if (unk === undefined) throw new MissingUnknownToken(word);
      return [{ id: unk, token: unkToken }];
    },
  };
}
