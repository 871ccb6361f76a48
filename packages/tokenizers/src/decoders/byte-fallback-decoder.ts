/** `<0xXX>`; Rust's `u8::from_str_radix` also reads a sign, so `<0x+F>` is byte 15 there too. */
const BYTE_TOKEN = /^<0x(?:[0-9A-Fa-f]{2}|\+[0-9A-Fa-f])>$/;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Whether `token` is a byte piece `ByteFallback` decodes with its neighbours (`<0xXX>`): its text
 * depends on the byte pieces around it (a run that is not valid UTF-8 becomes one U+FFFD per byte, the
 * valid ones included).
 *
 * @example
 * isByteFallbackToken('<0xE3>'); // true
 * isByteFallbackToken('▁the'); // false
 */
export function isByteFallbackToken(token: string): boolean {
  return BYTE_TOKEN.test(token);
}

/**
 * The `ByteFallback` decoder of the Rust `tokenizers` library: runs of `<0xXX>` tokens become the
 * text their bytes spell, or, when the bytes are not valid UTF-8, one U+FFFD per byte (the library
 * does not use the per-sequence replacement of a lenient UTF-8 decoder).
 *
 * @example
 * byteFallbackDecoder(['<0xE2>', '<0x96>', '<0x81>', 'a', '<0xFF>']); // ['▁', 'a', '�']
 */
export function byteFallbackDecoder(tokens: readonly string[]): string[] {
  const out: string[] = [];
  let bytes: number[] = [];
  const flush = () => {
    if (bytes.length === 0) return;
    try {
      out.push(utf8.decode(new Uint8Array(bytes)));
    } catch {
      for (let i = 0; i < bytes.length; i++) out.push('\ufffd');
    }
    bytes = [];
  };
  for (const token of tokens) {
    if (isByteFallbackToken(token)) bytes.push(Number.parseInt(token.slice(3, 5), 16));
    else {
      flush();
      out.push(token);
    }
  }
  flush();
  return out;
}
