/** A token the model gives for a piece of text: its id and its string. */
export interface Token {
  readonly id: number;
  readonly token: string;
}

/** A tokenizer.json model (WordPiece, BPE, Unigram, WordLevel), as the Rust `tokenizers` library runs it. */
export interface TokenizerModel {
  /** The tokens of one pre-token (a word). Throws {@link MissingUnknownToken} where the library fails for want of an unknown token. */
  tokenize(word: string): Token[];
  tokenToId(token: string): number | undefined;
  idToToken(id: number): string | undefined;
  /** The library's `get_vocab_size()` (where ids of added tokens that are not in the vocabulary start). */
  readonly size: number;
}

/**
 * Thrown by a model for a piece it can only give as the unknown token when it has none (the
 * library's `MissingUnkToken` / `MissingUnkId` errors); `Tokenizer.encode` turns it into an
 * `InvalidArgumentError` naming the text.
 */
export class MissingUnknownToken extends Error {
  constructor(readonly piece: string) {
    super(`no unknown token for ${JSON.stringify(piece)}`);
    this.name = 'MissingUnknownToken';
  }
}

/** A vocabulary object (token → id) as a Map, and the reverse (id → the token the library's reverse map keeps). */
export function vocabularyMaps(vocab: Record<string, unknown>): { ids: Map<string, number>; tokens: Map<number, string> } {
  const ids = new Map(Object.entries(vocab) as [string, number][]);
  const tokens = new Map<number, string>();
  for (const [token, id] of ids) tokens.set(id, token);
  return { ids, tokens };
}
