import { MissingUnknownToken, vocabularyMaps, type Token, type TokenizerModel } from './tokenizer-model.js';

/** The options of a tokenizer.json `WordPiece` model. */
export interface WordPieceOptions {
  readonly vocab: Record<string, unknown>;
  readonly unkToken: string;
  readonly continuingSubwordPrefix: string;
  readonly maxInputCharsPerWord: number;
}

/**
 * The WordPiece model of the Rust `tokenizers` library (BERT): greedy longest-match-first from the
 * start of the word, pieces after the first written with the prefix (`##`); a word with a part no
 * piece matches, or longer than `maxInputCharsPerWord` characters, is the unknown token as a whole.
 *
 * @example
 * wordPiece({ vocab: { '[UNK]': 0, un: 1, '##able': 2 }, unkToken: '[UNK]', continuingSubwordPrefix: '##', maxInputCharsPerWord: 100 }).tokenize('unable'); // un, ##able
 */
export function wordPiece(options: WordPieceOptions): TokenizerModel {
  const { ids, tokens } = vocabularyMaps(options.vocab);
  const unknown = (word: string): Token[] => {
    const id = ids.get(options.unkToken);
    if (id === undefined) throw new MissingUnknownToken(word);
    return [{ id, token: options.unkToken }];
  };
  return {
    size: ids.size,
    tokenToId: (token) => ids.get(token),
    idToToken: (id) => tokens.get(id),
    tokenize(word) {
      const chars = [...word];
      if (chars.length > options.maxInputCharsPerWord) return unknown(word);
      const out: Token[] = [];
      for (let start = 0; start < chars.length; ) {
        let end = chars.length;
        let found: Token | undefined;
        for (; start < end; end--) {
          const piece = (start > 0 ? options.continuingSubwordPrefix : '') + chars.slice(start, end).join('');
          const id = ids.get(piece);
          if (id !== undefined) {
            found = { id, token: piece };
            break;
          }
        }
        if (found === undefined) return unknown(word);
        out.push(found);
        start = end;
      }
      return out;
    },
  };
}
