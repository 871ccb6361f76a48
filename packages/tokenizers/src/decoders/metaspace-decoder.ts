/**
 * The `Metaspace` decoder of the Rust `tokenizers` library: `replacement` characters become spaces,
 * except in the first token, where (unless `prependScheme` is "never") every one is dropped.
 *
 * @example
 * metaspaceDecoder('▁', 'always')(['▁Hello', '▁world']); // ['Hello', ' world']
 */
export function metaspaceDecoder(replacement: string, prependScheme: 'always' | 'first' | 'never'): (tokens: readonly string[]) => string[] {
  return (tokens) => tokens.map((token, i) => token.replaceAll(replacement, i === 0 && prependScheme !== 'never' ? '' : ' '));
}
