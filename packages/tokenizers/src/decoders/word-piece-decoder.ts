/** The WordPiece decoder's `cleanup` (the library's, with its " do not" → " don't"): spaces before punctuation and contractions removed. */
export function wordPieceCleanup(text: string): string {
  return text
    .replaceAll(' .', '.')
    .replaceAll(' ?', '?')
    .replaceAll(' !', '!')
    .replaceAll(' ,', ',')
    .replaceAll(" ' ", "'")
    .replaceAll(" n't", "n't")
    .replaceAll(" 'm", "'m")
    .replaceAll(' do not', " don't")
    .replaceAll(" 's", "'s")
    .replaceAll(" 've", "'ve")
    .replaceAll(" 're", "'re");
}

/**
 * The `WordPiece` decoder of the Rust `tokenizers` library: a token after the first loses its
 * `prefix` (`##`) or gets a space in front; with `cleanup`, each token is cleaned up
 * ({@link wordPieceCleanup}).
 *
 * @example
 * wordPieceDecoder('##', true)(['hello', '##s', ',', 'world']); // ['hello', 's', ',', ' world']
 */
export function wordPieceDecoder(prefix: string, cleanup: boolean): (tokens: readonly string[]) => string[] {
  return (tokens) =>
    tokens.map((token, i) => {
      const spaced = i === 0 ? token : token.startsWith(prefix) ? token.slice(prefix.length) : ` ${token}`;
      return cleanup ? wordPieceCleanup(spaced) : spaced;
    });
}
