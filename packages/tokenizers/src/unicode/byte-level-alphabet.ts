/**
 * GPT-2's byte-level alphabet (the ByteLevel pre-tokenizer, normalizer and decoder): each byte as a
 * printable character. Printable Latin-1 bytes stand for themselves; the others (controls, space,
 * U+00AD, ...) map to U+0100 onwards in byte order.
 */
export const BYTE_TO_CHAR: readonly string[] = (() => {
  const printable = (b: number) => (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  let next = 256;
  return Array.from({ length: 256 }, (_, b) => String.fromCharCode(printable(b) ? b : next++));
})();

/** The byte each byte-level character stands for. */
export const CHAR_TO_BYTE: ReadonlyMap<string, number> = new Map(BYTE_TO_CHAR.map((c, b) => [c, b]));

const encoder = new TextEncoder();

/**
 * `text` as byte-level characters: its UTF-8 bytes (a lone surrogate as U+FFFD's), each written as
 * its {@link BYTE_TO_CHAR} character.
 *
 * @example
 * byteLevel(' é'); // 'ĠÃ©'
 */
export function byteLevel(text: string): string {
  let out = '';
  for (const byte of encoder.encode(text)) out += BYTE_TO_CHAR[byte];
  return out;
}
