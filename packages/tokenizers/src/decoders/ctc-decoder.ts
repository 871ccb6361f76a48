import { wordPieceCleanup } from './word-piece-decoder.js';

/**
 * The `CTC` decoder of the Rust `tokenizers` library (wav2vec2): repeated tokens collapse to one,
 * `padToken` is removed, and with `cleanup` the WordPiece clean-up runs and `wordDelimiterToken`
 * becomes a space; tokens left empty are dropped.
 *
 * @example
 * ctcDecoder('<pad>', '|', true)(['h', 'h', 'e', '<pad>', 'l', 'l', '<pad>', 'l', 'o', '|']); // ['h', 'e', 'l', 'l', 'o', ' ']
 */
export function ctcDecoder(padToken: string, wordDelimiterToken: string, cleanup: boolean): (tokens: readonly string[]) => string[] {
  return (tokens) =>
    tokens.flatMap((token, i) => {
      if (i > 0 && tokens[i - 1] === token) return [];
      let out = padToken === '' ? token : token.replaceAll(padToken, '');
      if (cleanup) out = wordPieceCleanup(out).replaceAll(wordDelimiterToken, ' ');
      return out === '' ? [] : [out];
    });
}
