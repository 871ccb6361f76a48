import { CHAR_TO_BYTE } from '../unicode/byte-level-alphabet.js';

const encoder = new TextEncoder();
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The `ByteLevel` decoder of the Rust `tokenizers` library: every token's byte-level characters
 * back to bytes (a token with any other character, such as an added token, as its own UTF-8), all
 * decoded as one UTF-8 text with U+FFFD for invalid sequences.
 *
 * @example
 * byteLevelDecoder(['Hello', 'Ġw', 'Ã¶rld']); // ['Hello wörld']
 */
export function byteLevelDecoder(tokens: readonly string[]): string[] {
  const bytes: number[] = [];
  for (const token of tokens) {
    const own: number[] = [];
    let mapped = true;
    for (const char of token) {
      const byte = CHAR_TO_BYTE.get(char);
      if (byte === undefined) {
        mapped = false;
        break;
      }
      own.push(byte);
    }
    for (const byte of mapped ? own : encoder.encode(token)) bytes.push(byte);
  }
  return [utf8.decode(new Uint8Array(bytes))];
}
